import FileSystemKit
import SessionFormats
import SessionModel

/// Safari for iOS's `BrowserState.db` as read: the database through SQLite (or why SQLite
/// refused it), what its pages hold besides (`BrowserStateSalvage`: every tab when SQLite refuses
/// the file, else the tabs no row SQLite reads holds any more), and each tab's stored session
/// state decoded. Each file is read once.
public struct BrowserStateFileRead: BrowserSessionFile {
    public var database: Result<BrowserStateDatabase, BrowserStateRefusal>
    /// Tabs read from the pages by hand and not from SQLite's rows: those Safari no longer has.
    public var salvaged: BrowserStateSalvage
    /// Each tab's decoded state, by tab UUID (tabs without a stored state have none), the live
    /// tabs' and the salvaged ones'.
    public var states: [String: SafariTabState.Decoded]
    /// The bytes read of the database and its companions, from which a repair reads the rows
    /// it carries over (nil when they could not be read).
    var files: PrivateDatabaseCopy.Files?

    /// The tabs Safari restores: those of its open windows.
    public var restoredTabs: [BrowserStateDatabase.Tab] {
        guard case .success(let database) = database else { return [] }
        let open = Set(database.windows.filter(\.isOpen).map(\.uuid))
        return database.tabs.filter { open.contains($0.windowUUID ?? "") }
    }

    /// Reads the database of `source` and its companions (each once), through SQLite and by
    /// hand, and decodes the tabs' states (at every depth: a tab's count of items is its
    /// history's length, and the states are rows already read).
    static func read(_ source: SessionSource, tree: ReadableTree, depth: ReadDepth) -> BrowserStateFileRead {
        let files: PrivateDatabaseCopy.Files
        do throws(BrowserStateRefusal) {
            files = try PrivateDatabaseCopy.Files.read(source.path, tree: tree)
        } catch {
            return BrowserStateFileRead(
                database: .failure(error), salvaged: BrowserStateSalvage(windows: [], tabs: []), states: [:], files: nil)
        }
        let database = Result { () throws(BrowserStateRefusal) in
            try BrowserStateDatabase.read(files, name: lastPathComponent(source.path))
        }
        // Of a database Safari keeps, only the rows SQLite no longer has are read from the pages.
        let live = (try? database.get()).flatMap { read in read.opensInSafari ? Set(read.tabs.map(\.uuid) + read.windows.map(\.uuid)) : nil
        }
        var salvaged = BrowserStateSalvage.scan(database: files.database, wal: files.wal, live: live, path: source.path)
        if case .success(let read) = database {
            let live = Set(read.tabs.map(\.uuid))
            let windows = Set(read.windows.map(\.uuid))
            salvaged.tabs.removeAll { live.contains($0.uuid) }
            salvaged.windows.removeAll { windows.contains($0.uuid) }
        }
        // Each state decoded once, on every core (those of tabs made from a state alone, the
        // salvage decoded already).
        var seen = Set<String>()
        let listed = (try? database.get())?.tabs ?? []
        let stored = (listed + salvaged.tabs.filter { salvaged.orphanStates[$0.uuid] == nil }).filter { tab in
            !(tab.sessionData ?? []).isEmpty && seen.insert(tab.uuid).inserted
        }
        let path = source.path
        let decoded = OrderedParallelMap.map(stored, concurrently: tree.fileSystem.readsConcurrently) { tab in
            SafariTabState.decode(
                tab.sessionData ?? [], uncompressedSize: tab.uncompressedSize, file: BrowserStateSalvage.stateLabel(path, tab: tab.uuid))
        }
        var states = salvaged.orphanStates
        states.reserveCapacity(stored.count + states.count)
        for (tab, state) in zip(stored, decoded) { states[tab.uuid] = state }
        return BrowserStateFileRead(database: database, salvaged: salvaged, states: states, files: files)
    }

    /// Every open window as a session, its recently closed windows as the first one's closed
    /// windows; tabs of no listed window make a session of their own, named by the window they
    /// name. Tabs found only in the pages are marked salvaged: when SQLite refuses the file they
    /// are the windows' tabs; else each is a closed tab of its window (Safari no longer has it).
    public func sessions(_ source: SessionSource, reader: SessionReader, history: Bool) throws(FormatError) -> [Session] {
        switch database {
        case .success(let database) where !database.opensInSafari:
            // Safari closes it: every tab that can be read, SQLite's rows and the pages', is salvage.
            return self.sessions(source, windows: database.windows, tabs: everyTab, history: history, salvaged: true)
        case .success(let database):
            var sessions = self.sessions(source, windows: database.windows, tabs: database.tabs, history: history, salvaged: false)
            guard !salvaged.tabs.isEmpty else { return sessions }
            if sessions.isEmpty { sessions.append(Session(id: source.id, format: .browserState)) }
            for tab in salvaged.tabs {
                let index = sessions.firstIndex { $0.id == tab.windowUUID } ?? 0
                var model = self.tab(tab, index: sessions[index].closedTabs.count, history: history)
                model.salvaged = true
                sessions[index].closedTabs.append(model)
            }
            return sessions
        case .failure(let refusal):
            guard !salvaged.tabs.isEmpty else { throw .unreadable(path: reader.displayPath(source.path), reason: refusal.reason) }
            return self.sessions(source, windows: salvaged.windows, tabs: salvaged.tabs, history: history, salvaged: true)
        }
    }

    /// Every tab that can be read: SQLite's, then those only the pages hold.
    public var everyTab: [BrowserStateDatabase.Tab] {
        ((try? database.get())?.tabs ?? []) + salvaged.tabs
    }

    /// Where Safari stops: the refusal of a file whose tabs were read from its pages.
    public func salvageDamage(_ source: SessionSource, reader: SessionReader) -> FormatError? {
        guard case .failure(let refusal) = database, !salvaged.tabs.isEmpty else { return nil }
        return .unreadable(
            path: reader.displayPath(source.path),
            reason: "\(refusal.reason): Safari reads no tab of it; the tabs marked salvaged were read from its pages")
    }

    /// The windows of `windows` and `tabs` as sessions (see `sessions(_:reader:history:)`).
    private func sessions(
        _ source: SessionSource, windows: [BrowserStateDatabase.Window], tabs: [BrowserStateDatabase.Tab], history: Bool, salvaged: Bool
    ) -> [Session] {
        var byWindow: [String: [BrowserStateDatabase.Tab]] = [:]
        var order: [String] = []
        for window in windows where byWindow[window.uuid] == nil {
            byWindow[window.uuid] = []
            order.append(window.uuid)
        }
        for tab in tabs {
            let key = tab.windowUUID ?? windows.first { $0.id != nil && $0.id == tab.windowID }?.uuid ?? ""
            if byWindow[key] == nil { order.append(key) }
            byWindow[key, default: []].append(tab)
        }
        let byUUID = Dictionary(windows.map { ($0.uuid, $0) }, uniquingKeysWith: { first, _ in first })
        var open: [Session] = []
        var closed: [Session] = []
        for key in order {
            let window = byUUID[key]
            var session = self.session(key, window: window, tabs: byWindow[key] ?? [], history: history)
            if salvaged {
                for index in session.tabs.indices { session.tabs[index].salvaged = true }
            }
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
        for (index, tab) in tabs.enumerated() { model.append(self.tab(tab, index: index, history: history)) }
        return Session(
            id: key.isEmpty ? "no-window" : key, incognito: false, format: .browserState, activeIndex: active,
            pinnedCount: 0, tabs: model)
    }
}

extension BrowserStateFileRead {
    /// One tab as a model tab, numbered `index + 1`, with its history when `history`.
    func tab(_ tab: BrowserStateDatabase.Tab, index: Int, history: Bool) -> Tab {
        let time = SafariTime.timestamp(tab.lastViewedTime)
        let state = states[tab.uuid]?.state
        return Tab(
            id: Int32(clamping: index + 1), title: tab.title, url: tab.url, lastActiveTime: time,
            navigationItemCount: state.map { Int32(clamping: $0.entries.count) } ?? (tab.url.isEmpty ? 0 : 1),
            history: history ? state.map { $0.history(time: time) } : nil, stableIdentifier: tab.uuid, incognito: tab.isPrivate)
    }
}

extension SessionRead {
    /// The database read, for Safari for iOS's `BrowserState.db`.
    public var browserState: BrowserStateFileRead? {
        guard case .file(let file) = content else { return nil }
        return file as? BrowserStateFileRead
    }
}
