import SessionFormats

/// What a workload's starting profile (`--from`) held before the store first touched it, as the
/// oracles need it: entries outside Chrome's layout that were already there, and the tabs Chrome's
/// own loading rules take away from its sessions.
public struct StartingFacts: Sendable {
    /// Keys (`ProfileScan.key`) of entries outside Chrome's layout in the starting profile: the
    /// user's files, which the store must keep and the hygiene oracle does not charge it with.
    public var userEntries: Set<UInt64> = []
    /// One line per tab of the starting profile that a Chrome rule drops or restores without its
    /// history, naming the session and the rule (what recovery may let go, once a copy is kept).
    public var chromeRuleLosses: [String] = []

    public init() {}

    /// The facts of the profile `tree` holds at `profile` (an inode; nil when there is none).
    init(tree: ModelTree, profile: Int32?) {
        let scan = ProfileScan(tree: tree, profile: profile, names: ProfileNames(tree.names), collectFiles: false)
        userEntries = Set(scan.strayEntries)
        for session in scan.sessions {
            let directory = SessionPaths.directory(session, tree.names)
            chromeRuleLosses += SessionLoader.compute(session, tree: tree).shortenings.map { "\(directory): \($0)" }
        }
    }
}
