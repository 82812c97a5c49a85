import FileSystemKit
import SessionFormats
import SessionModel

/// Safari for iOS's `BrowserState.db` as read: the database through SQLite (or why SQLite
/// refused it), and each tab's stored session state decoded when the read goes as deep as
/// histories.
public struct BrowserStateFileRead: BrowserSessionFile {
    public var database: Result<BrowserStateDatabase, BrowserStateRefusal>
    /// Each tab's decoded state, by tab UUID (tabs without a stored state have none).
    public var states: [String: SafariTabState.Decoded]

    /// The tabs Safari restores: those of its open windows (and of windows it does not list).
    public var restoredTabs: [BrowserStateDatabase.Tab] {
        guard case .success(let database) = database else { return [] }
        let closed = Set(database.windows.filter { !$0.isOpen }.map(\.uuid))
        return database.tabs.filter { !closed.contains($0.windowUUID ?? "") }
    }

    /// Reads the database of `source`, and decodes the tabs' states (at every depth: a tab's
    /// count of items is its history's length, and the states are rows already read).
    static func read(_ source: SessionSource, tree: ReadableTree, depth: ReadDepth) -> BrowserStateFileRead {
        let database = Result { () throws(BrowserStateRefusal) in try BrowserStateDatabase.read(source.path, tree: tree) }
        var states: [String: SafariTabState.Decoded] = [:]
        if case .success(let database) = database {
            for tab in database.tabs {
                guard let data = tab.sessionData, !data.isEmpty else { continue }
                states[tab.uuid] = SafariTabState.decode(
                    data, uncompressedSize: tab.uncompressedSize, file: "\(source.path) (tab_sessions, tab \(tab.uuid))")
            }
        }
        return BrowserStateFileRead(database: database, states: states)
    }

    /// Every open window as a session, its recently closed windows as the first one's closed
    /// windows; tabs of no listed window make a session of their own, named by the window they
    /// name.
    public func sessions(_ source: SessionSource, reader: SessionReader, history: Bool) throws(FormatError) -> [Session] {
        let database: BrowserStateDatabase
        switch self.database {
        case .success(let read): database = read
        case .failure(let refusal): throw .unreadable(path: reader.displayPath(source.path), reason: refusal.reason)
        }
        var byWindow: [String: [BrowserStateDatabase.Tab]] = [:]
        var order: [String] = []
        for window in database.windows where byWindow[window.uuid] == nil {
            byWindow[window.uuid] = []
            order.append(window.uuid)
        }
        for tab in database.tabs {
            let key = tab.windowUUID ?? database.windows.first { $0.id != nil && $0.id == tab.windowID }?.uuid ?? ""
            if byWindow[key] == nil { order.append(key) }
            byWindow[key, default: []].append(tab)
        }
        let windows = Dictionary(database.windows.map { ($0.uuid, $0) }, uniquingKeysWith: { first, _ in first })
        var open: [Session] = []
        var closed: [Session] = []
        for key in order {
            let window = windows[key]
            let session = self.session(key, window: window, tabs: byWindow[key] ?? [], history: history)
            if window?.isOpen == false { closed.append(session) } else { open.append(session) }
        }
        if open.isEmpty, !closed.isEmpty { open.append(Session(id: source.id, format: .browserState)) }
        if !open.isEmpty { open[0].closedWindows = closed }
        return open
    }

    /// One window's tabs, in `order_index` order, numbered from 1; the selected regular tab active.
    private func session(_ key: String, window: BrowserStateDatabase.Window?, tabs: [BrowserStateDatabase.Tab], history: Bool) -> Session {
        var model: [Tab] = []
        var active: Int32 = -1
        let regular = tabs.enumerated().filter { !$0.element.isPrivate }.map(\.offset)
        if let selected = window?.activeDocumentIndex, selected >= 0, selected < regular.count {
            active = Int32(clamping: regular[Int(selected)])
        }
        for (index, tab) in tabs.enumerated() {
            let time = SafariTime.timestamp(tab.lastViewedTime)
            let state: WebKitSessionState? =
                switch states[tab.uuid] {
                case .history(let state, _)?: state
                case .dropped(let state?, _)?: state
                default: nil
                }
            let tabHistory = history ? state.map { $0.history(time: time) } : nil
            let count = state.map { Int32(clamping: $0.entries.count) } ?? (tab.url.isEmpty ? 0 : 1)
            model.append(
                Tab(
                    id: Int32(clamping: index + 1), title: tab.title, url: tab.url, lastActiveTime: time,
                    navigationItemCount: count, history: tabHistory, stableIdentifier: tab.uuid, incognito: tab.isPrivate))
        }
        return Session(
            id: key.isEmpty ? "no-window" : key, incognito: false, format: .browserState, activeIndex: active,
            pinnedCount: 0, tabs: model)
    }
}

extension SessionRead {
    /// The database read, for Safari for iOS's `BrowserState.db`.
    public var browserState: BrowserStateFileRead? {
        guard case .file(let file) = content else { return nil }
        return file as? BrowserStateFileRead
    }
}
