import FileSystemKit

/// A family of browsers that keep sessions in one set of formats, behind the one interface every
/// command reads through: recognise an input by its content and layout, read it tolerantly into
/// the shared model in one walk, and describe where its sessions live.
///
/// What the family's browser does on load with each problem and what repair writes for it are
/// the family's rulebook (`BrowserRulebook` in SessionForensics), registered beside it.
public protocol BrowserFamily: Sendable {
    /// The stable name that JSON documents carry and `--browser` takes (`chrome-ios`).
    var name: String { get }
    /// The name shown to people ("Chrome for iOS").
    var displayName: String { get }
    /// Where the family keeps live sessions, incognito sessions and backups.
    var layout: BrowserLayout { get }

    /// Locates the sessions of `tree` (its root the input directory, or with `file` the
    /// directory holding the input file), recognised by content and layout; nil when the input is
    /// not this family's. Throws `.notASession` naming what the input is when it is recognisably
    /// something else that no family reads.
    func locate(tree: ReadableTree, file: String?, ancestry: [String]) throws(FormatError) -> LocatedInput?

    /// Reads a located input of this family in one walk, as deep as `depth` (Chrome's own set-aside
    /// sessions too, with `backups`).
    func read(_ input: LocatedInput, depth: ReadDepth, backups: Bool) -> InputRead
}

/// Where a browser family keeps its sessions in a profile, for discovery, set-aside and bundles.
public struct BrowserLayout: Sendable, Equatable {
    /// Directories (relative to the profile) that hold live sessions.
    public var liveDirectories: [String]
    /// Directories that hold the incognito side's live sessions.
    public var incognitoDirectories: [String]
    /// Where sessionctl sets sessions aside (relative to the profile, for the regular and incognito side).
    public var setAsideDirectories: [String]
    /// Names whose presence at the top of a directory makes it one of the family's profiles.
    public var profileMarkers: [String]

    public init(liveDirectories: [String], incognitoDirectories: [String], setAsideDirectories: [String], profileMarkers: [String]) {
        self.liveDirectories = liveDirectories
        self.incognitoDirectories = incognitoDirectories
        self.setAsideDirectories = setAsideDirectories
        self.profileMarkers = profileMarkers
    }
}
