import FileSystemKit
import SessionFormats
import SessionModel

/// Firefox for iOS: `window-data/window-<UUID>` (JSON) with its copy in `window-data-backup/`
/// and each tab's WebKit session state in `tab-session-data/`, and the legacy tab archives of the
/// versions before (`tabsState.archive`, `codableTabsState.archive`), under `profile.profile/` of
/// the app group container (docs/firefox-ios-format.md).
public struct FirefoxIOSFamily: BrowserFamily {
    public init() {}

    public var name: String { "firefox-ios" }
    public var displayName: String { "Firefox for iOS" }

    /// Window files (with their backups and their tabs' session states) and legacy tab archives.
    public var fileFormats: [SessionFormat] { [.windowData, .tabsArchive] }
    /// Each window's directory, and the profile's three directories of window files, backups and tab states.
    public func sweptDirectories(_ input: LocatedInput) -> [String] {
        input.sessions.filter { [.windowData, .tabsArchive].contains($0.format) }.flatMap { source -> [String] in
            var directories = source.format == .windowData ? [pathComponents(source.path).dropLast().joined(separator: "/")] : []
            if let profile = source.firefoxProfile {
                directories += [
                    FirefoxIOSLayout.windowDataDirectory, FirefoxIOSLayout.backupDirectory, FirefoxIOSLayout.tabSessionDataDirectory
                ].map { joinPath(profile, $0) }
            }
            return directories
        }
    }

    /// Tabs by UUID, each private or not; a tab's history is its WebKit session state.
    public var tabPresentation: TabPresentation {
        TabPresentation(
            namedByStableIdentifier: true, marksPrivateTabs: true, marksSalvagedTabs: true, historyFile: "tab-session-data file")
    }

    public func readFile(_ source: SessionSource, tree: ReadableTree, depth: ReadDepth) -> any BrowserSessionFile {
        source.format == .windowData
            ? FirefoxWindowRead.read(source, tree: tree, depth: depth) : FirefoxLegacyFileRead.read(source, tree: tree)
    }
    public var shortName: String { "firefox" }

    /// A directory holding the window directories, itself or in `profile.profile/`, or a
    /// `profile.profile/` holding a legacy archive, or the directory holding that (an archive
    /// alone, in a downloads folder, makes no profile a writer locks).
    /// Window files (`window-<UUID>`), taken at their word so that a damaged one is examined.
    public func claimsFileName(_ name: String) -> Bool { FirefoxIOSLayout.windowID(fromFileName: name) != nil }

    /// Its window directories and the tabs' session states.
    public var sessionStateDirectories: [String] {
        [FirefoxIOSLayout.windowDataDirectory, FirefoxIOSLayout.backupDirectory, FirefoxIOSLayout.tabSessionDataDirectory]
    }

    public func isProfileDirectory(_ tree: ReadableTree) -> Bool {
        let windows = [FirefoxIOSLayout.windowDataDirectory, FirefoxIOSLayout.backupDirectory]
        if ["", FirefoxIOSLayout.profileDirectory].contains(where: { base in
            windows.contains { tree.kind(of: joinPath(base, $0)) == .directory }
        }) {
            return true
        }
        let named = lastPathComponent(tree.displayName) == FirefoxIOSLayout.profileDirectory
        return (named || tree.kind(of: FirefoxIOSLayout.profileDirectory) == .directory) && Self.holdsProfile(tree)
    }
    /// The profile (its legacy archives), `profile.profile/` and the window directories in either.
    public var watchedDirectories: [String] {
        ["", FirefoxIOSLayout.profileDirectory].flatMap { base in
            [base]
                + [FirefoxIOSLayout.windowDataDirectory, FirefoxIOSLayout.backupDirectory, FirefoxIOSLayout.tabSessionDataDirectory].map {
                    joinPath(base, $0)
                }
        }
    }

    /// Recognises a container (`profile.profile/` inside), a profile directory (`window-data/`, its
    /// backup or a legacy archive inside), a directory of window files, one window file, by its
    /// name (`window-<UUID>`, taken at its word so that a damaged file is still examined) or by its
    /// content (a JSON object with `activeTabId` and `tabData`), or one legacy archive, by its name
    /// or by its content (a keyed archive of tabs that decodes as one).
    public func locate(tree: ReadableTree, file: String?, ancestry: [String]) throws(FormatError) -> LocatedInput? {
        var located: LocatedInput
        if let file {
            let base = lastPathComponent(file)
            var isArchive = FirefoxIOSLayout.legacyArchiveNames.contains(base)
            if !isArchive, FirefoxIOSLayout.windowID(fromFileName: base) == nil { isArchive = Self.isLegacyArchive(try tree.read(file)) }
            if isArchive {
                located = LocatedInput(
                    tree: tree, kind: .file, sessions: [SessionSource(id: base, incognito: false, kind: .file(.tabsArchive), path: file)])
                located.family = self
                return located
            }
            if FirefoxIOSLayout.windowID(fromFileName: base) == nil {
                guard Self.isWindowFile(try tree.read(file)) else { return nil }
            }
            let id = FirefoxIOSLayout.windowID(fromFileName: base) ?? base
            located = LocatedInput(
                tree: tree, kind: .file, sessions: [SessionSource(id: id, incognito: false, kind: .file(.windowData), path: file)])
        } else if let found = try locateDirectory(tree: tree, ancestry: ancestry) {
            located = found
        } else {
            return nil
        }
        located.family = self
        return located
    }

    public func read(_ input: LocatedInput, depth: ReadDepth, backups: Bool) -> InputRead {
        InputRead(input, depth: depth)
    }

    /// A directory of this family's: a container, a profile, a directory of window files, or one
    /// of them one level down (an unpacked bundle).
    private func locateDirectory(tree: ReadableTree, ancestry: [String]) throws(FormatError) -> LocatedInput? {
        let names = Set(tree.list(""))
        let isDirectory = { (path: String) in tree.kind(of: path) == .directory }
        if names.contains(FirefoxIOSLayout.profileDirectory), isDirectory(FirefoxIOSLayout.profileDirectory),
            Self.isProfile(tree: tree, FirefoxIOSLayout.profileDirectory)
        {
            return LocatedInput(tree: tree, kind: .profile, sessions: Self.windows(tree: tree, profile: FirefoxIOSLayout.profileDirectory))
        }
        if Self.isProfile(tree: tree, "") {
            return LocatedInput(tree: tree, kind: .profile, sessions: Self.windows(tree: tree, profile: ""))
        }
        let windowFiles = names.sorted().filter { FirefoxIOSLayout.windowID(fromFileName: $0) != nil && tree.kind(of: $0) == .file }
        if !windowFiles.isEmpty || ancestry.last == FirefoxIOSLayout.windowDataDirectory {
            let sessions = windowFiles.map { name in
                SessionSource(
                    id: FirefoxIOSLayout.windowID(fromFileName: name) ?? name, incognito: false, kind: .file(.windowData), path: name)
            }
            return LocatedInput(tree: tree, kind: .storageDirectory, sessions: sessions)
        }
        // An unpacked bundle: one container or profile one level down.
        let inside = names.sorted().filter { child in
            isDirectory(child)
                && (Self.isProfile(tree: tree, child) || Self.isProfile(tree: tree, joinPath(child, FirefoxIOSLayout.profileDirectory)))
        }
        if inside.count == 1, let child = inside.first,
            var located = try locateDirectory(tree: tree.subtree(child), ancestry: ancestry + [child])
        {
            located.profileFoundInside = child
            return located
        }
        return nil
    }

    /// Whether the directory at the root of `tree` is a Firefox for iOS container or profile
    /// (which may also hold sessionctl's `Backups/` of a repair, without becoming Chrome's).
    public static func holdsProfile(_ tree: ReadableTree) -> Bool {
        isProfile(tree: tree, "") || isProfile(tree: tree, FirefoxIOSLayout.profileDirectory)
    }

    /// Whether `path` holds Firefox's window directories or one of its legacy archives.
    private static func isProfile(tree: ReadableTree, _ path: String) -> Bool {
        [FirefoxIOSLayout.windowDataDirectory, FirefoxIOSLayout.backupDirectory].contains { name in
            tree.kind(of: joinPath(path, name)) == .directory
        } || FirefoxIOSLayout.legacyArchiveNames.contains { tree.kind(of: joinPath(path, $0)) == .file }
    }

    /// The windows of the profile at `profile`: each file of `window-data/` Firefox would list
    /// (sorted by name), then each window left only in `window-data-backup/` (which Firefox never
    /// finds, listed for what it holds), then each legacy archive, the Codable one first.
    static func windows(tree: ReadableTree, profile: String) -> [SessionSource] {
        let mainDirectory = joinPath(profile, FirefoxIOSLayout.windowDataDirectory)
        let main = tree.list(mainDirectory).filter { FirefoxIOSLayout.windowID(fromFileName: $0) != nil }
        let mainIDs = Set(main.compactMap(FirefoxIOSLayout.windowID(fromFileName:)).map { $0.uppercased() })
        let backupOnly = tree.list(joinPath(profile, FirefoxIOSLayout.backupDirectory)).filter { name in
            FirefoxIOSLayout.windowID(fromFileName: name).map { !mainIDs.contains($0.uppercased()) } ?? false
        }
        let windows = (main + backupOnly).map { name in
            var source = SessionSource(
                id: FirefoxIOSLayout.windowID(fromFileName: name) ?? name, incognito: false, kind: .file(.windowData),
                path: joinPath(mainDirectory, name))
            source.firefoxProfile = profile
            return source
        }
        let archives = FirefoxIOSLayout.legacyArchiveNames.filter { tree.kind(of: joinPath(profile, $0)) == .file }.map { name in
            var source = SessionSource(id: name, incognito: false, kind: .file(.tabsArchive), path: joinPath(profile, name))
            source.firefoxProfile = profile
            return source
        }
        return windows + archives
    }

    /// Whether `bytes` are a Firefox for iOS legacy tab archive: a keyed archive whose tabs decode,
    /// or a property list naming `SavedTab` objects (damaged, it is still examined).
    public static func isLegacyArchive(_ bytes: [UInt8]) -> Bool {
        guard bytes.starts(with: Array("bplist".utf8)) else { return false }
        if ForeignSession.recognize(bytes, chromePlistName: false) == .firefoxIOSArchive { return true }
        return (try? FirefoxLegacyArchive.decode(bytes, file: "")) != nil
    }

    /// Whether `bytes` are a Firefox for iOS window file: a JSON object naming `activeTabId` and `tabData`.
    public static func isWindowFile(_ bytes: [UInt8]) -> Bool {
        ForeignSession.recognize(bytes, chromePlistName: true) == .firefoxIOSWindowData
    }
}
