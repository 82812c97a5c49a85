/// One recorded run of a workload against the store on the model file system: the operations, the
/// acknowledged saves, and what the oracles compare crash states with.
public struct Recording: Sendable {
    /// The workload's name (a built-in name or a file path).
    public let workload: String
    /// The profile directory in the model file system.
    public let profile: String
    /// The tree before the first operation (the profile directory exists, durably).
    public let initial: ModelTree.Snapshot
    /// Every name any operation uses.
    public let names: NameTable
    /// The operations, in the order issued.
    public let operations: [FileOperation]
    /// The acknowledged saves, in order.
    public let acknowledgements: [Acknowledgement]
    /// The content of every session file at every version.
    public let versions: VersionIndex
    /// Incognito strings that must be gone after each close-all-incognito.
    public let privacy: PrivacyIndex
    /// Number of inodes the run created (crash states' recovery numbers its own above this).
    public let inodeCount: Int32
    /// For each operation, whether the app was running (launched, not shut down cleanly) when it was issued.
    public let running: [Bool]
    /// The workload events, as text, in order, with the index of their first operation.
    public let events: [(operation: Int, text: String)]
    /// Broken save promises found while recording (`SaveContractOracle`), by the crash point of
    /// the acknowledgement: every state of that crash point fails with them.
    public let contract: [Int: [Finding]]
    /// The crash points inside a launch's restore (`CrashLoopCountOracle.Phase` of each `launch`
    /// and `crash-during-restore` event's operations), each with its event: a crash there must be
    /// counted by the next launch as a crash during restore.
    public let restores: [(crashPoints: Range<Int>, event: String)]
    /// What the starting profile held (empty when the workload starts from an empty profile).
    public var starting = StartingFacts()
    /// The damaged profile the workload started from (`from NAME`), which a kill loop's child
    /// profile is made with too.
    public var start: DamagedProfile?

    public init(
        workload: String, profile: String, initial: ModelTree.Snapshot, names: NameTable,
        operations: [FileOperation], acknowledgements: [Acknowledgement], versions: VersionIndex,
        privacy: PrivacyIndex, inodeCount: Int32, running: [Bool], events: [(operation: Int, text: String)],
        contract: [Int: [Finding]] = [:]
    ) {
        self.workload = workload
        self.profile = profile
        self.initial = initial
        self.names = names
        self.operations = operations
        self.acknowledgements = acknowledgements
        self.versions = versions
        self.privacy = privacy
        self.inodeCount = inodeCount
        self.running = running
        self.events = events
        self.contract = contract
        var restores: [(crashPoints: Range<Int>, event: String)] = []
        for (index, event) in events.enumerated() where event.text.hasPrefix("launch") || event.text.hasPrefix("crash-during-restore") {
            let end = index + 1 < events.count ? events[index + 1].operation : operations.count
            guard event.operation < end else { continue }
            let phase = CrashLoopCountOracle.Phase(Array(operations[event.operation..<end]), profile: profile)
            guard let first = phase.firstWork else { continue }
            let last = max(phase.lastWork ?? first, phase.lastMarkerWrite ?? first)
            restores.append((event.operation + first + 1..<event.operation + last + 1, event.text))
        }
        self.restores = restores
    }

    /// The acknowledgements completed when `crashPoint` operations had been issued.
    public func acknowledgements(before crashPoint: Int) -> ArraySlice<Acknowledgement> {
        var end = 0
        while end < acknowledgements.count && acknowledgements[end].afterOperations <= crashPoint { end += 1 }
        return acknowledgements[0..<end]
    }

    /// The workload event during which operation `index` was issued.
    public func event(of index: Int) -> String? {
        events.last { $0.operation <= index }?.text
    }
}

/// A completed save, as the store reported it.
public struct Acknowledgement: Sendable {
    /// Operations issued when the save reported completion.
    public let afterOperations: Int
    /// The version recorded at that moment (see `VersionIndex`).
    public let version: Int
    /// What the save was (`save 3 (background)`).
    public let label: String
    /// The privacy group this save made unrecoverable (a close-all-incognito), if any.
    public let privacyGroup: Int?

    public init(afterOperations: Int, version: Int, label: String, privacyGroup: Int?) {
        self.afterOperations = afterOperations
        self.version = version
        self.label = label
        self.privacyGroup = privacyGroup
    }
}
