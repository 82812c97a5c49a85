import FileSystemKit
import SessionFormats
import SessionModel

/// Safari for iOS: `Library/Safari/BrowserState.db` (SQLite, in WAL mode, with its `-wal` and
/// `-shm`), every window and tab in it and each tab's WebKit session state
/// (docs/safari-ios-format.md). Read through SQLite on a private copy, never in place.
public struct SafariIOSFamily: BrowserFamily {
    public init() {}

    public var name: String { "safari-ios" }
    public var displayName: String { "Safari for iOS" }
    public var shortName: String { "safari" }

    /// The database, read with `BrowserStateFileRead`.
    public var fileFormats: [SessionFormat] { [.browserState] }

    /// Tabs by UUID, each private or not; a tab's history is its stored session state.
    public var tabPresentation: TabPresentation {
        TabPresentation(namedByStableIdentifier: true, marksPrivateTabs: true, marksSalvagedTabs: true, historyFile: "tab_sessions row")
    }

    public func readFile(_ source: SessionSource, tree: ReadableTree, depth: ReadDepth) -> any BrowserSessionFile {
        BrowserStateFileRead.read(source, tree: tree, depth: depth)
    }

    public func read(_ input: LocatedInput, depth: ReadDepth, backups: Bool) -> InputRead {
        InputRead(input, depth: depth)
    }

    /// `BrowserState.db`, taken at its name so that a damaged one is examined.
    public func claimsFileName(_ name: String) -> Bool {
        name == SafariIOSLayout.databaseFile || name == SafariIOSLayout.backupDatabaseID
    }

    /// A directory holding `BrowserState.db` (Safari's own directory).
    public func isProfileDirectory(_ tree: ReadableTree) -> Bool {
        tree.kind(of: SafariIOSLayout.databaseFile) == .file
    }

    /// The directory holding the database and its companions.
    public var watchedDirectories: [String] { [""] }

    /// The directory a repair rewrites the database in, swept of what an interrupted rewrite left.
    public func sweptDirectories(_ input: LocatedInput) -> [String] {
        input.kind == .profile ? input.sessions.map { parentPath($0.path) } : []
    }

    /// Recognises `BrowserState.db` (by its name, or an SQLite file whose schema names Safari's
    /// tables), the `Safari/` directory holding it, a `Library/` or a home directory or app
    /// container holding that (`Library/Safari/`), and an unencrypted iTunes or Finder backup
    /// (its `Manifest.db` and the database at its HomeDomain file ID).
    public func locate(tree: ReadableTree, file: String?, ancestry: [String]) throws(FormatError) -> LocatedInput? {
        if let file {
            guard claimsFileName(lastPathComponent(file)) || Self.isBrowserState(tree: tree, file) else { return nil }
            var located = LocatedInput(tree: tree, kind: .file, sessions: [Self.source(file)])
            located.family = self
            return located
        }
        // An iTunes or Finder backup: read where it is, never written (not a profile a command
        // changes).
        let backed = SafariIOSLayout.backupPath(SafariIOSLayout.backupDatabaseID)
        if tree.kind(of: SafariIOSLayout.backupManifest) == .file, tree.kind(of: backed) == .file {
            var located = LocatedInput(tree: tree, kind: .storageDirectory, sessions: [Self.source(backed)])
            located.family = self
            return located
        }
        for inside in ["", SafariIOSLayout.safariDirectory, joinPath(SafariIOSLayout.libraryDirectory, SafariIOSLayout.safariDirectory)]
        where tree.kind(of: joinPath(inside, SafariIOSLayout.databaseFile)) == .file {
            let profile = inside.isEmpty ? tree : tree.subtree(inside)
            var located = LocatedInput(tree: profile, kind: .profile, sessions: [Self.source(SafariIOSLayout.databaseFile)])
            if !inside.isEmpty { located.profileFoundInside = inside }
            located.family = self
            return located
        }
        return nil
    }

    /// The one session source of a database: the file, named by its path.
    static func source(_ path: String) -> SessionSource {
        let name = lastPathComponent(path)
        return SessionSource(
            id: name == SafariIOSLayout.backupDatabaseID ? SafariIOSLayout.databaseFile : name, incognito: false,
            kind: .file(.browserState),
            path: path)
    }

    /// Whether the file at `path` is an SQLite database whose schema (on its first page) names
    /// Safari's tables: its first 64 KiB are read, not the whole file.
    static func isBrowserState(tree: ReadableTree, _ path: String) -> Bool {
        guard let head = try? tree.fileSystem.read(tree.absolute(path), limit: 1 << 16),
            head.starts(with: Array("SQLite format 3\0".utf8))
        else { return false }
        return ForeignSession.contains(head, "browser_windows") && ForeignSession.contains(head, "tab_group_uuid")
    }
}
