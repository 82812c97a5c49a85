import FileSystemKit

/// Where sessionctl's commands stage what they put together in a family's profile, so that the
/// next command (or the store's launch) can finish or undo what one cut short left there: the
/// directories that hold the family's session directories (a repair stages the new copy of one
/// beside it, a restore and an import stage theirs there too), the file a session directory is
/// written last, and where a migration moves the old tree aside.
public struct StagingLayout: Sendable, Hashable {
    /// The directories, relative to the profile, whose entries are session directories.
    public var sessionParents: [String]
    /// Names of the file a session directory's writer writes last: a staged copy holding one
    /// is complete.
    public var completionFiles: [String]
    /// The directories, relative to the profile, a migration moves the old tree aside into
    /// (`""` is the profile itself).
    public var displacedTreeParents: [String]

    public init(sessionParents: [String], completionFiles: [String], displacedTreeParents: [String]) {
        self.sessionParents = sessionParents
        self.completionFiles = completionFiles
        self.displacedTreeParents = displacedTreeParents
    }

    /// Nothing staged anywhere: a family whose sessions are files rewrites them whole instead
    /// (`BrowserFamily.sweptDirectories`).
    public static let none = StagingLayout(sessionParents: [], completionFiles: [], displacedTreeParents: [])

    /// Every place of `layouts`, each once, in order.
    public static func union(_ layouts: [StagingLayout]) -> StagingLayout {
        func unique(_ lists: [[String]]) -> [String] {
            var seen = Set<String>()
            return lists.joined().filter { seen.insert($0).inserted }
        }
        return StagingLayout(
            sessionParents: unique(layouts.map(\.sessionParents)), completionFiles: unique(layouts.map(\.completionFiles)),
            displacedTreeParents: unique(layouts.map(\.displacedTreeParents)))
    }

    /// The staging layouts of every registered family, together: where settling looks, whatever
    /// family's profile it is given (a command cut short may have left it unrecognisable).
    public static var registered: StagingLayout { union(BrowserFamilies.all.map(\.stagingLayout)) }
}
