/// What survives a crash: which completed operations are certain to be on disk and how the others
/// may appear.
public enum PersistenceModel: String, Sendable, CaseIterable {
    /// The process dies, the kernel survives: every completed call is durable; the call in
    /// progress may be partial (a write cut at any byte).
    case process
    /// Power is lost (ALICE's default abstract persistence model): only what was fsynced is
    /// certain. Unsynced operations may be lost or reordered, writes torn at piece and block
    /// granularity (zero- or garbage-filled, size grown before the data), renames split into
    /// unlink destination / unlink source / link destination, directory entries without a
    /// directory fsync lost.
    case pessimistic

    /// A one-line description for help texts and reports.
    public var summary: String {
        switch self {
        case .process: return "the process dies; every completed call is durable, the call in progress may be partial"
        case .pessimistic: return "power is lost; only what was fsynced is certain"
        }
    }
}

/// Which recorded operations a persistence model has made certain, as a workload's operations are
/// issued one by one: the ones not yet certain are pending (they may or may not be on disk).
struct PendingOperations {
    /// A pending operation and the barriers it still waits for.
    struct Entry {
        var index: Int
        /// Directories whose fsync it waits for (entry operations; a rename may wait for two).
        var directories: [Int32]
        /// The file whose fsync it waits for (data operations), or -1.
        var inode: Int32
    }

    let model: PersistenceModel
    /// Pending operations in issue order.
    private(set) var entries: [Entry] = []

    init(model: PersistenceModel) { self.model = model }

    /// Indices of the pending operations, in issue order.
    var indices: [Int] { entries.map(\.index) }

    var isEmpty: Bool { entries.isEmpty }

    /// Issues operation `index`; returns the operations that became certain with it (in issue
    /// order, the operation itself included when it is certain at once).
    mutating func issue(_ index: Int, _ effect: Effect) -> [Int] {
        switch model {
        case .process:
            return [index]
        case .pessimistic:
            switch effect {
            // A copy made in one step (`Effect.linkTree`) never comes here: it is only recorded by
            // recovery runs whose steps are not explored, and explored steps are always made one
            // by one. Were it to come, only its parent's fsync would settle it.
            case .addEntry(let directory, _, _, _), .removeEntry(let directory, _), .linkTree(_, let directory, _, _):
                entries.append(Entry(index: index, directories: [directory], inode: -1))
                return []
            case .rename(let from, _, let to, _, _):
                entries.append(Entry(index: index, directories: from == to ? [from] : [from, to], inode: -1))
                return []
            case .write(let inode, _, _, _, _), .truncate(let inode, _, _, _):
                entries.append(Entry(index: index, directories: [], inode: inode))
                return []
            case .fsyncFile(let inode):
                return settle { entry in entry.inode == inode }
            case .fsyncDirectory(let directory):
                return settle { entry in
                    entry.directories.removeAll { $0 == directory }
                    return entry.inode < 0 && entry.directories.isEmpty
                }
            }
        }
    }

    /// Removes and returns (in issue order) the pending operations a barrier makes certain.
    private mutating func settle(_ covers: (inout Entry) -> Bool) -> [Int] {
        var settled: [Int] = []
        var kept: [Entry] = []
        kept.reserveCapacity(entries.count)
        for var entry in entries {
            if covers(&entry) { settled.append(entry.index) } else { kept.append(entry) }
        }
        entries = kept
        return settled
    }
}
