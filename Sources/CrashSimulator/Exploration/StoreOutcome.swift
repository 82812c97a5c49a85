/// How a crash state of a browser's store restores, from best to worst: what every store's
/// judge says of a state beside its findings.
public enum StoreOutcome: Int, Sendable, Comparable {
    /// Everything loads as the last returned save, or a later one, wrote it.
    case latest
    /// Something loads as an earlier save wrote it: the changes since are lost.
    case older
    /// Something (a window, the whole session) loads from no file: every tab of it is lost.
    case lost
    /// Something loads bytes that no save wrote.
    case torn

    public static func < (lhs: StoreOutcome, rhs: StoreOutcome) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// How many crash states of a run of a store restored each way.
public struct StoreOutcomes: Sendable, Equatable {
    public var latest = 0
    public var older = 0
    public var lost = 0
    public var torn = 0

    public init() {}

    /// Counts one state that ended as `outcome`.
    package mutating func count(_ outcome: StoreOutcome) {
        switch outcome {
        case .latest: latest += 1
        case .older: older += 1
        case .lost: lost += 1
        case .torn: torn += 1
        }
    }
}
