import FileSystemKit
import SessionFormats
import SessionModel

/// One Firefox for iOS window as read in one walk: its file in `window-data/`, the copy in
/// `window-data-backup/`, and (for histories) the WebKit session state of each of its tabs, each
/// decoded tolerantly, with which of the two files Firefox itself would load.
public struct FirefoxWindowRead: Sendable {
    /// Which of a window's two files.
    public enum Side: String, Sendable {
        case main
        case backup
    }

    /// One tab's `tab-session-data/tab-<UUID>` as read.
    public struct TabState: Sendable {
        /// The tab's UUID, as its window file writes it.
        public var tabID: String
        /// The file, relative to the input's root.
        public var path: String
        public var file: FileRead
        /// What the file decodes to; nil when it was not read.
        public var state: Result<WebKitSessionState, FormatError>?
    }

    /// The window file, relative to the input's root.
    public var mainPath: String
    /// Its backup, relative to the input's root; nil when the input does not reach the profile.
    public var backupPath: String?
    public var main: FileRead
    /// What the window file decodes to, when it was read.
    public var mainWindow: FirefoxWindowFile?
    /// `.missing` when there is no backup (or the input does not reach it).
    public var backup: FileRead
    public var backupWindow: FirefoxWindowFile?
    /// The session states of the tabs of the window shown (`window`), in tab order, each UUID
    /// once, when histories were read; the file of a tab without one is `.missing`.
    public var tabStates: [TabState]

    /// The file Firefox loads: the window file when it decodes as Firefox decodes it, else the
    /// backup when it does; nil when neither does (Firefox then opens the window with one new tab).
    public var loaded: Side? {
        if mainWindow?.loadsInFirefox == true { return .main }
        if backupWindow?.loadsInFirefox == true { return .backup }
        return nil
    }

    /// The window Firefox loads, as decoded.
    public var window: FirefoxWindowData? {
        switch loaded {
        case .main: mainWindow?.window
        case .backup: backupWindow?.window
        case nil: nil
        }
    }

    /// Reads the window of `source` (a `.file(.windowData)` source) of `tree` as deep as `depth`: its
    /// two files always, each listed tab's session state from `.histories` on (read on every core).
    public static func read(_ source: SessionSource, tree: ReadableTree, depth: ReadDepth) -> FirefoxWindowRead {
        let backupPath = source.firefoxProfile.map {
            joinPath($0, FirefoxIOSLayout.backupDirectory, lastPathComponent(source.path))
        }
        // The two files are read and decoded side by side.
        let files = OrderedParallelMap.map([source.path] + (backupPath.map { [$0] } ?? []), concurrently: tree.fileSystem.readsConcurrently)
        {
            path -> (FileRead, FirefoxWindowFile?) in
            let file = FileRead(oneCall: tree, path)
            return (file, file.bytes.map(FirefoxWindowDecoder.decode))
        }
        let (main, mainWindow) = files[0]
        let (backup, backupWindow) = files.count > 1 ? files[1] : (.missing, nil)
        var read = FirefoxWindowRead(
            mainPath: source.path, backupPath: backupPath, main: main, mainWindow: mainWindow, backup: backup, backupWindow: backupWindow,
            tabStates: [])
        if depth >= .histories, let profile = source.firefoxProfile, let window = read.window ?? read.readableWindow ?? read.salvagedWindow
        {
            let directory = joinPath(profile, FirefoxIOSLayout.tabSessionDataDirectory)
            // Each UUID's file once; an id that is no UUID names no file of Firefox's (nor a path out of the profile).
            var seen = Set<String>()
            let ids = window.tabs.map(\.id).filter { FirefoxUUID.isValid($0) && seen.insert($0).inserted }
            read.tabStates = OrderedParallelMap.map(ids, concurrently: tree.fileSystem.readsConcurrently) { id in
                let path = joinPath(directory, FirefoxIOSLayout.tabSessionFilePrefix + id)
                let file = FileRead(oneCall: tree, path)
                return TabState(
                    tabID: id, path: path, file: file,
                    state: file.bytes.map { bytes in
                        Result { () throws(FormatError) in try WebKitSessionState.decode(bytes, file: path) }
                    })
            }
        }
        return read
    }

    /// A window that reads whole but that Firefox's decoder refuses (a file of an earlier
    /// version lacking a key the current one requires, say): the window file's, else the backup's.
    public var readableWindow: FirefoxWindowData? {
        for file in [mainWindow, backupWindow] {
            if let file, file.damage == nil, let window = file.window { return window }
        }
        return nil
    }

    /// Why Firefox does not load one of the files, for a message.
    public func whyNotLoaded(_ side: Side) -> String {
        let (file, decoded) = side == .main ? (main, mainWindow) : (backup, backupWindow)
        switch file {
        case .missing: return "missing"
        case .unreadable(let error): return error.reason
        case .bytes:
            if let damage = decoded?.damage { return "not JSON: \(damage.reason)" }
            if let refusal = decoded?.refusals.first { return "Firefox's decoder refuses \(refusal)" }
            return "not a window"
        }
    }

    /// The window as far as the files read, when Firefox loads neither: the window file's tabs
    /// read whole, else the backup's.
    public var salvagedWindow: FirefoxWindowData? {
        if let window = mainWindow?.window, !window.tabs.isEmpty { return window }
        return backupWindow?.window ?? mainWindow?.window
    }

    /// The decoded session state of each tab that has one, by the tab's UUID.
    public var statesByTab: [String: WebKitSessionState] {
        var states: [String: WebKitSessionState] = [:]
        for tab in tabStates {
            if case .success(let state)? = tab.state { states[tab.tabID] = state }
        }
        return states
    }
}
