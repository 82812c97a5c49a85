/// One crash state: where the crash happened, which pending operations reached the disk, which
/// one (if any) reached it torn, and whether the crash hit recovery itself.
///
/// A descriptor only: the explorer materialises it on the durable base of its crash point.
public struct CrashState: Hashable, Sendable {
    /// Number of operations issued before the crash (the crash is "after operation crashPoint - 1").
    public var crashPoint: Int
    /// Which pending (not yet certain) operations reached the disk.
    public var selection: Selection
    /// An operation that reached the disk only partly.
    public var tear: Tear?
    /// When set, the crash state is the one left by a crash after this many of the recovery's own
    /// operations, recovery having run on the state the rest describes.
    public var recoveryCrash: Int?
    /// With `recoveryCrash`: the recovery's next write cut after this many bytes.
    public var recoveryCut: Int?
    /// With `recoveryCrash`, under the pessimistic model: which of recovery's pending operations
    /// reached the disk (nil: all of them), and one of them that reached it torn (operations
    /// numbered from 0 within recovery).
    public var recoveryKeep: Selection?
    public var recoveryTear: Tear?

    public init(crashPoint: Int, selection: Selection = .all, tear: Tear? = nil, recoveryCrash: Int? = nil, recoveryCut: Int? = nil) {
        self.crashPoint = crashPoint
        self.selection = selection
        self.tear = tear
        self.recoveryCrash = recoveryCrash
        self.recoveryCut = recoveryCut
    }
}

/// Which pending operations of a crash point reached the disk.
public enum Selection: Hashable, Sendable {
    /// All of them (the prefix of the log).
    case all
    /// None of them (only what was certain).
    case none
    /// All but these (operation indices, ascending).
    case allBut([Int])
    /// Only these (operation indices, ascending).
    case only([Int])

    /// The selection as a subset of `pending` given by a bit mask over its positions.
    static func mask(_ bits: UInt64, of pending: [Int]) -> Selection {
        let count = pending.count
        if bits == 0 { return .none }
        if count < 64 && bits == (UInt64(1) << UInt64(count)) - 1 { return .all }
        var kept: [Int] = []
        var dropped: [Int] = []
        for (position, index) in pending.enumerated() {
            if bits & (UInt64(1) << UInt64(position)) != 0 { kept.append(index) } else { dropped.append(index) }
        }
        return dropped.count < kept.count ? .allBut(dropped) : .only(kept)
    }

    /// Calls `body` for each operation of `pending` (ascending) that the selection keeps.
    func forEachKept(of pending: [Int], _ body: (Int) -> Void) {
        switch self {
        case .all: pending.forEach(body)
        case .none: break
        case .allBut(let dropped):
            var next = 0
            for index in pending {
                while next < dropped.count && dropped[next] < index { next += 1 }
                if next < dropped.count && dropped[next] == index { continue }
                body(index)
            }
        case .only(let kept):
            var next = 0
            for index in pending {
                while next < kept.count && kept[next] < index { next += 1 }
                if next < kept.count && kept[next] == index { body(index) }
            }
        }
    }

    /// Whether the selection keeps operation `index` (which must be pending).
    func keeps(_ index: Int) -> Bool {
        switch self {
        case .all: return true
        case .none: return false
        case .allBut(let dropped): return !dropped.contains(index)
        case .only(let kept): return kept.contains(index)
        }
    }
}

/// An operation that reached the disk only partly.
public enum Tear: Hashable, Sendable {
    /// A write cut after `bytes` bytes (the call in progress under the process model).
    case cut(operation: Int, bytes: Int)
    /// A write split into `pieces` equal pieces (or `blockSize`-aligned blocks when `aligned`),
    /// of which those in `kept` (bit mask) arrived; missing ones read as zeros, or garbage when
    /// `garbage`; `grown`: the file size covers the whole write, else only up to the last kept piece.
    case pieces(operation: Int, pieces: Int, aligned: Bool, kept: UInt64, garbage: Bool, grown: Bool)
    /// A write that arrived whole except `length` bytes of garbage at the end of 512-byte sector
    /// `sector` (counted from the write's first sector).
    case sector(operation: Int, sector: Int, length: Int)
    /// Some of a rename's three steps (bit 0: unlink destination, 1: unlink source, 2: link destination).
    case renameSteps(operation: Int, steps: Int)

    /// The operation torn.
    public var operation: Int {
        switch self {
        case .cut(let operation, _), .pieces(let operation, _, _, _, _, _), .sector(let operation, _, _),
            .renameSteps(let operation, _):
            return operation
        }
    }

    /// File-system block size for aligned pieces.
    public static let blockSize = 4096
    /// Sector size for torn sectors.
    public static let sectorSize = 512
}
