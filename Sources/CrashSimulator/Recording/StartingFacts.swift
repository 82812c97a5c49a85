import FileSystemKit
import SessionForensics
import SessionFormats
import SessionStore

/// What a workload's starting profile (`--from`) held before the store first touched it, as the
/// oracles need it: entries outside Chrome's layout that were already there, and the tabs Chrome's
/// own loading rules take away from its sessions.
public struct StartingFacts: Sendable {
    /// Keys (`ProfileScan.key`) of entries outside Chrome's layout in the starting profile: the
    /// user's files, which the store must keep and the hygiene oracle does not charge it with.
    public var userEntries: Set<UInt64> = []
    /// One line per tab of the starting profile that a Chrome rule drops or restores without its
    /// history, naming the session and the rule (what recovery may let go, once a copy is kept);
    /// read once what interrupted sessionctl commands left is settled (`InterruptedCommands`), so
    /// that a window an interrupted repair set aside counts as the launch puts it back.
    public var chromeRuleLosses: [String] = []

    public init() {}

    /// The facts of the profile `tree` holds at `path` (`profile`: its inode; nil when there is none);
    /// `settled` are its copies as the launch may leave them (`settledCopies`).
    init(tree: ModelTree, profile: Int32?, settled: [ModelTree]) {
        let scan = ProfileScan(tree: tree, profile: profile, names: ProfileNames(tree.names), collectFiles: false)
        userEntries = Set(scan.strayEntries)
        var losses: [String] = []
        for copy in settled.isEmpty ? [tree] : settled {
            let scan = ProfileScan(tree: copy, profile: profile, names: ProfileNames(copy.names), collectFiles: false)
            for session in scan.sessions {
                let directory = SessionPaths.directory(session, copy.names)
                losses += SessionLoader.compute(session, tree: copy).shortenings.map { "\(directory): \($0)" }
            }
        }
        var seen = Set<String>()
        chromeRuleLosses = losses.filter { seen.insert($0).inserted }
    }

    /// Copies of the profile `tree` holds at `path` as the launch may leave it once it has
    /// settled what interrupted sessionctl commands left (`InterruptedCommands`): with every
    /// staged repair finished, and with every staged copy lost (a power loss can take one away),
    /// each original put back. Empty when nothing is left to settle.
    static func settledCopies(of tree: ModelTree, path: String) -> [ModelTree] {
        let probe = InterruptedCommands(writer: AtomicWriter(fileSystem: ModelFileSystem(tree: tree)), profile: path)
        guard !probe.stagedRepairs().isEmpty || RepairIntent.read(probe.writer, profile: path) != nil else { return [] }
        return [false, true].map { losingStaged in
            let copy = ModelTree(snapshot: tree.snapshot())
            let writer = AtomicWriter(fileSystem: ModelFileSystem(tree: copy))
            let commands = InterruptedCommands(writer: writer, profile: path)
            if losingStaged {
                for staged in commands.stagedRepairs() { try? writer.removeTree(joinPath(path, staged)) }
            }
            _ = try? commands.settle()
            return copy
        }
    }
}
