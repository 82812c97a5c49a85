import Archive
import FileSystemKit
import SessionFormats
import SessionModel

/// Firefox desktop: a profile's `sessionstore.jsonlz4` and `sessionstore-backups/` (mozLz4
/// JSON, or the plain `.js` files of old versions), read with prefs.js and the crash monitor's
/// checkpoints (docs/firefox-desktop-format.md).
public struct FirefoxDesktopFamily: BrowserFamily {
    public init() {}

    public var name: String { "firefox-desktop" }
    public var displayName: String { "Firefox desktop" }

    /// Session files (`sessionstore.jsonlz4`, `sessionstore-backups/`), read with `SessionstoreFileRead`.
    public var fileFormats: [SessionFormat] { [.sessionstore] }
    /// A session document redacted (`SessionstoreRedactor`): every document Firefox keeps in mozLz4.
    public func redactedSessionDocument(_ document: JSONValue) -> JSONValue? { SessionstoreRedactor.redact(document) }

    /// The profile (`sessionstore.jsonlz4`) and its `sessionstore-backups/`.
    public func sweptDirectories(_ input: LocatedInput) -> [String] {
        input.sessions.filter { $0.format == .sessionstore }.compactMap(\.firefoxProfile).flatMap {
            [$0, joinPath($0, FirefoxDesktopLayout.backupsDirectory)]
        }
    }

    /// Tabs by their id in the file where they have one, each private or not; histories are in the session file.
    public var tabPresentation: TabPresentation {
        TabPresentation(namedByStableIdentifier: true, marksPrivateTabs: true, marksSalvagedTabs: true, historyFile: "session file")
    }

    public func readFile(_ source: SessionSource, tree: ReadableTree, depth: ReadDepth) -> any BrowserSessionFile {
        SessionstoreFileRead.read(source, tree: tree)
    }
    public var shortName: String { "firefox" }

    /// A directory holding `sessionstore-backups/`, or a session file beside `prefs.js` (a
    /// session file alone, in a downloads folder, makes no profile a writer locks).
    public func isProfileDirectory(_ tree: ReadableTree) -> Bool {
        tree.kind(of: FirefoxDesktopLayout.backupsDirectory) == .directory
            || (Self.isProfile(tree: tree, "") && tree.kind(of: "prefs.js") == .file)
    }
    /// The profile itself (its session files) and `sessionstore-backups/`.
    public var watchedDirectories: [String] { ["", FirefoxDesktopLayout.backupsDirectory] }

    /// Recognises a profile directory (a session file or `sessionstore-backups/` inside), the
    /// `sessionstore-backups/` directory itself, a directory holding one profile one level down,
    /// or one session file: by its name (taken at its word, so that a damaged file is still
    /// examined) or by its content (mozLz4 holding a session, or a JSON session document).
    public func locate(tree: ReadableTree, file: String?, ancestry: [String]) throws(FormatError) -> LocatedInput? {
        if let file {
            let base = lastPathComponent(file)
            let named =
                SessionstoreRole.of(path: base) != nil
                || SessionstoreRole.of(path: joinPath(FirefoxDesktopLayout.backupsDirectory, base)) != nil
                || base.hasSuffix(".jsonlz4") || base.hasSuffix(".baklz4")
            if !named {
                guard Self.isSessionFile(try tree.read(file)) else { return nil }
            }
            var located = LocatedInput(
                tree: tree, kind: .file, sessions: [SessionSource(id: base, incognito: false, kind: .file(.sessionstore), path: file)])
            located.family = self
            return located
        }
        guard var located = locateDirectory(tree: tree, ancestry: ancestry) else { return nil }
        located.family = self
        return located
    }

    public func read(_ input: LocatedInput, depth: ReadDepth, backups: Bool) -> InputRead {
        InputRead(input, depth: depth)
    }

    /// Firefox's record lock on `.parentlock` (or an old `lock` link naming a live process).
    public func runningHolder(profile: String) -> BrowserProfileLock.Holder? {
        BrowserProfileLock.firefoxHolder(profile: profile)
    }

    /// A profile, its `sessionstore-backups/`, or a profile one level down (an unpacked bundle).
    private func locateDirectory(tree: ReadableTree, ancestry: [String]) -> LocatedInput? {
        if Self.isProfile(tree: tree, "") {
            var located = LocatedInput(tree: tree, kind: .profile, sessions: Self.sessionFiles(tree: tree, profile: ""))
            located.firefoxDesktop = FirefoxDesktopSettings.read(tree: tree, profile: "")
            return located
        }
        let names = tree.list("")
        if ancestry.last == FirefoxDesktopLayout.backupsDirectory || names.contains(where: { Self.backupRole($0) != nil }) {
            let sessions = names.sorted().filter { Self.backupRole($0) != nil && tree.kind(of: $0) == .file }.map { name in
                SessionSource(
                    id: joinPath(FirefoxDesktopLayout.backupsDirectory, name), incognito: false, kind: .file(.sessionstore), path: name)
            }
            guard !sessions.isEmpty || ancestry.last == FirefoxDesktopLayout.backupsDirectory else { return nil }
            return LocatedInput(tree: tree, kind: .storageDirectory, sessions: sessions)
        }
        let inside = names.sorted().filter { tree.kind(of: $0) == .directory && Self.isProfile(tree: tree, $0) }
        if inside.count == 1, let child = inside.first,
            var located = locateDirectory(tree: tree.subtree(child), ancestry: ancestry + [child])
        {
            located.profileFoundInside = child
            return located
        }
        return nil
    }

    /// The role of a file of `sessionstore-backups/` by its name.
    private static func backupRole(_ name: String) -> SessionstoreRole? {
        SessionstoreRole.of(path: joinPath(FirefoxDesktopLayout.backupsDirectory, name))?.role
    }

    /// Whether the directory at `path` is a Firefox desktop profile: it holds a session file or
    /// `sessionstore-backups/`.
    static func isProfile(tree: ReadableTree, _ path: String) -> Bool {
        tree.kind(of: joinPath(path, FirefoxDesktopLayout.backupsDirectory)) == .directory
            || !tree.list(joinPath(path, FirefoxDesktopLayout.backupsDirectory)).isEmpty
            || [SessionstoreRole.clean.path(), SessionstoreRole.clean.path(compressed: false)].contains {
                tree.kind(of: joinPath(path, $0)) == .file
            }
    }

    /// The session files of the profile at `profile`: the clean file, then each file of
    /// `sessionstore-backups/` Firefox names, sorted (the load order is `SessionstoreLoad`'s).
    static func sessionFiles(tree: ReadableTree, profile: String) -> [SessionSource] {
        var paths = [SessionstoreRole.clean.path(), SessionstoreRole.clean.path(compressed: false)].filter {
            tree.kind(of: joinPath(profile, $0)) == .file
        }
        let backups = joinPath(profile, FirefoxDesktopLayout.backupsDirectory)
        paths += tree.list(backups).sorted().filter { name in
            backupRole(name) != nil && tree.kind(of: joinPath(backups, name)) == .file
        }.map { joinPath(FirefoxDesktopLayout.backupsDirectory, $0) }
        return paths.map { path in
            var source = SessionSource(id: path, incognito: false, kind: .file(.sessionstore), path: joinPath(profile, path))
            source.firefoxProfile = profile
            return source
        }
    }

    /// Whether `bytes` are a Firefox desktop session file: any mozLz4 container (Mozilla's, which
    /// Firefox keeps its sessions in; one that holds no session is read as one and said so, damaged
    /// or not), or a JSON object naming `windows` and the session restore version, the selected
    /// window or the closed windows.
    public static func isSessionFile(_ bytes: [UInt8]) -> Bool {
        if MozLz4.isContainer(bytes) { return true }
        guard bytes.first == UInt8(ascii: "{") else { return false }
        return ForeignSession.contains(bytes, "\"windows\"")
            && (ForeignSession.contains(bytes, "\"sessionrestore\"") || ForeignSession.contains(bytes, "\"_closedWindows\"")
                || ForeignSession.contains(bytes, "\"selectedWindow\""))
    }
}
