import Archive
import ChromiumDesktop
@_spi(CrashTesting) import CrashSimulator
import FileSystemKit
import SessionFormats
import SessionModel
import SessionStore

/// Plays a workload's events on a model of Chromium desktop's session service: its windows and
/// tabs in memory, the commands each change schedules, `CommandStorageManager`'s timing (a batch
/// written 2.5 s after the first command queued, and at shutdown), a reset at each launch and
/// after 250 commands, crashes, and launches that restore what Chrome restores (`SNSSLoad`), each
/// write made by an `SNSSStoreWriter`.
///
/// The commands follow the session service and `Browser::SyncHistoryWithTabs`: a new tab's window,
/// the index and pinned state of it and every tab after it, its session storage, then the
/// navigation (the selected index first); a move or a close syncs the tabs from the first that
/// changed place; a window that disconnects closes its tabs, then itself (the last window's close
/// writes nothing: Chrome is exiting). After a crash Chrome writes nothing until the user answers
/// its restore prompt; the model takes the workload's next events as made after the restore.
/// Incognito tabs are not saved (their windows belong to another profile); groups change
/// nothing; `background` is no event of a desktop browser.
struct ChromiumDesktopStoreDriver {
    /// A batch that returned: where it ended, the tabs the session then held, and the operations around it.
    struct Save: Sendable {
        var written: SNSSStoreWriter.Written
        /// Each tab's identity (its history's URLs).
        var tabs: [[String]]
        var startOperations: Int
        var afterOperations: Int
        var label: String
    }

    private struct Tab {
        var label: String
        var id: Int32
        var history: [(url: String, title: String)]
        var pinned: Bool
    }

    private struct Window {
        var name: String
        var id: Int32
        var tabs: [Tab]
        var active: String?
    }

    /// `kSaveDelay`, in seconds.
    static let saveDelaySeconds = 2.5
    /// `kWritesPerReset`.
    static let writesPerReset = 250
    /// Seconds from 1601 to 1970.
    static let epochOffset = 11_644_473_600.0

    private var writer: SNSSStoreWriter
    private let operations: () -> Int
    private var windows: [Window] = []
    private var privateTabs: Set<String> = []
    private var queue: [SNSSCommand] = []
    private var pendingReset = false
    private var commandsSinceReset = 0
    private var nextID: Int32 = 1
    /// Virtual time, seconds since 1970.
    private var now = 1_764_000_000.0
    private var due: Double?
    private var running = false
    private(set) var saves: [Save] = []
    private(set) var events: [(operation: Int, text: String)] = []

    init(writer: SNSSStoreWriter, operations: @escaping () -> Int) {
        self.writer = writer
        self.operations = operations
    }

    /// Everything written to each file, by name.
    var intended: [String: [UInt8]] { writer.intended }

    /// Plays `workload` from its first event to its last.
    mutating func play(_ workload: Workload) throws(SimulatorError) {
        for step in workload.steps {
            events.append((operations(), step.text))
            do { try handle(step.event) } catch { throw .storeFailed(event: step.text, reason: error.description) }
        }
    }

    private mutating func handle(_ event: WorkloadEvent) throws(FileSystemError) {
        switch event {
        case .launch:
            try launch()
            return
        case .crashDuringRestore:
            try launch()
            stop()
            return
        default: break
        }
        guard running else { return }
        switch event {
        case .launch, .crashDuringRestore, .background, .group, .closeAllIncognito: break
        case .open(let label, let url, let title, let name, let incognito):
            guard !incognito else {
                privateTabs.insert(label)
                return
            }
            open(label, url: url, title: title, in: name)
        case .navigate(let label, let url, let title):
            guard let (w, t) = place(of: label) else { return }
            windows[w].tabs[t].history.append((url, title))
            let tab = windows[w].tabs[t]
            commit(tab, index: Int32(tab.history.count - 1), url: url, title: title)
        case .close(let label):
            guard let (w, t) = place(of: label) else { return }
            let tab = windows[w].tabs.remove(at: t)
            schedule(.tabClosed(tab: tab.id, time: microseconds))
            syncIndices(of: w, from: t)
        case .move(let label, let index):
            guard let (w, t) = place(of: label) else { return }
            let tab = windows[w].tabs.remove(at: t)
            let to = min(max(index, 0), windows[w].tabs.count)
            windows[w].tabs.insert(tab, at: to)
            syncIndices(of: w, from: min(t, to))
        case .activate(let label):
            guard let (w, t) = place(of: label) else { return }
            windows[w].active = label
            schedule(.setSelectedTabInIndex(window: windows[w].id, index: Int32(t)))
            schedule(.lastActiveTime(tab: windows[w].tabs[t].id, time: microseconds))
        case .pin(let label, let pinned):
            // The tab moves to the edge of the pinned tabs (`TabStripModel::SetTabPinned`), then the tabs are synced.
            guard let (w, t) = place(of: label) else { return }
            var tab = windows[w].tabs.remove(at: t)
            tab.pinned = pinned
            let to = windows[w].tabs.filter(\.pinned).count
            windows[w].tabs.insert(tab, at: to)
            syncIndices(of: w, from: min(t, to))
        case .disconnect(let name):
            // The last window's close is only pending (Chrome is exiting): nothing is written for it.
            guard let w = windows.firstIndex(where: { $0.name == name }), windows.count > 1 else { return }
            let window = windows.remove(at: w)
            for tab in window.tabs { schedule(.tabClosed(tab: tab.id, time: microseconds)) }
            schedule(.windowClosed(window: window.id, time: microseconds))
        case .wait(let seconds):
            try pass(seconds)
        case .crash:
            stop()
        case .shutdown:
            // The session service's destructor saves what is queued.
            try save(why: "shutdown")
            stop()
        }
    }

    /// Microseconds since 1601, as Chrome's times in session files are.
    private var microseconds: Int64 { Int64((now + Self.epochOffset) * 1_000_000) }

    /// Opens a tab at the end of window `name` (the window made, typed normal, when new).
    private mutating func open(_ label: String, url: String, title: String, in name: String) {
        if !windows.contains(where: { $0.name == name }) {
            windows.append(Window(name: name, id: newID(), tabs: [], active: nil))
            schedule(.setWindowType(window: windows[windows.count - 1].id, type: 0))
        }
        guard let w = windows.firstIndex(where: { $0.name == name }) else { return }
        let tab = Tab(label: label, id: newID(), history: [(url, title)], pinned: false)
        windows[w].tabs.append(tab)
        schedule(.setTabWindow(window: windows[w].id, tab: tab.id))
        syncIndices(of: w, from: windows[w].tabs.count - 1)
        schedule(.sessionStorageAssociated(tab: tab.id, namespace: "namespace-\(tab.id)"))
        commit(tab, index: 0, url: url, title: title)
    }

    /// `SessionTabHelper::NavigationEntryCommitted`: the selected index, then the entry.
    private mutating func commit(_ tab: Tab, index: Int32, url: String, title: String) {
        schedule(.setSelectedNavigationIndex(tab: tab.id, index: index))
        schedule(.updateTabNavigation(SNSSNavigation(tab: tab.id, index: index, url: url, title: title, timestamp: microseconds)))
    }

    /// `Browser::SyncHistoryWithTabs`: the index and pinned state of every tab of window `w` from `start` on.
    private mutating func syncIndices(of w: Int, from start: Int) {
        for position in start..<windows[w].tabs.count {
            let tab = windows[w].tabs[position]
            schedule(.setTabIndexInWindow(tab: tab.id, index: Int32(position)))
            schedule(.setPinnedState(tab: tab.id, pinned: tab.pinned))
        }
    }

    private mutating func newID() -> Int32 {
        defer { nextID += 1 }
        return nextID
    }

    private func place(of label: String) -> (Int, Int)? {
        for (w, window) in windows.enumerated() {
            if let t = window.tabs.firstIndex(where: { $0.label == label }) { return (w, t) }
        }
        return nil
    }

    /// `SessionServiceBase::ScheduleCommand`: a navigation of the same tab and index replaces the
    /// queued one; past 250 commands since the last reset (and not on a close) a reset is
    /// scheduled instead; the save timer starts if it is not running.
    private mutating func schedule(_ command: SNSSCommand) {
        if command.id == 6, let replaced = queue.firstIndex(where: { $0.id == 6 && $0.contents[4..<12] == command.contents[4..<12] }) {
            queue.remove(at: replaced)
            queue.append(command)
            return
        }
        queue.append(command)
        commandsSinceReset += 1
        if !pendingReset, commandsSinceReset >= Self.writesPerReset, !command.isClosing {
            pendingReset = true
            queue = []
        }
        if due == nil { due = now + Self.saveDelaySeconds }
    }

    /// Lets `seconds` pass, making the delayed save when it falls due.
    private mutating func pass(_ seconds: Double) throws(FileSystemError) {
        let end = now + seconds
        if let due, due <= end {
            now = due
            try save(why: pendingReset ? "reset" : "delayed")
        }
        now = end
    }

    /// Chrome stops: what is queued is never written.
    private mutating func stop() {
        running = false
        due = nil
        queue = []
        writer.stop()
    }

    /// Chrome starts: the backend takes the last session and deletes the other files, the
    /// session is what Chrome restores from it, and a reset is scheduled.
    private mutating func launch() throws(FileSystemError) {
        running = true
        nextID = 1
        queue = []
        commandsSinceReset = 0
        let known = windows.flatMap(\.tabs)
        windows = []
        privateTabs = []
        let tree = ReadableTree(fileSystem: writer.fileSystem, root: writer.profile)
        var restored: (name: String, replay: SNSSReplay?)?
        if let located = try? BrowserFamilies.locate(tree: tree, ancestry: [], browser: ChromiumDesktopFamily()) {
            let read = InputRead(located, depth: .lists)
            if let (candidate, file) = SNSSLoad(read).restoredSession(read) {
                restored = (lastPathComponent(read.sessions[candidate.session].source.path), file.chrome)
            }
        }
        try writer.start(restored: restored?.name)
        var used = Set<String>()
        for (index, window) in (restored?.replay?.windows ?? []).enumerated() {
            var tabs: [Tab] = []
            for tab in window.tabs {
                let history = tab.navigations.map { (url: $0.url, title: $0.title) }
                let urls = history.map(\.url)
                let label =
                    known.first { $0.history.map(\.url) == urls && !used.contains($0.label) }?.label ?? "restored-\(index)-\(tabs.count)"
                used.insert(label)
                tabs.append(Tab(label: label, id: newID(), history: history, pinned: tab.pinned))
            }
            let active = tabs.isEmpty ? nil : tabs[window.selectedPosition].label
            windows.append(
                Window(name: index == 0 ? WorkloadEvent.mainWindow : "window-\(index + 1)", id: newID(), tabs: tabs, active: active))
        }
        pendingReset = true
        due = now + Self.saveDelaySeconds
    }

    /// The session as a reset writes it: every window and tab, in order.
    private var fullState: [UInt8] {
        let replayWindows = windows.map { window in
            SNSSReplay.Window(
                id: window.id, type: 0, selectedTabIndex: Int32(window.tabs.firstIndex { $0.label == window.active } ?? 0),
                tabs: window.tabs.enumerated().map { position, tab in
                    SNSSReplay.Tab(
                        id: tab.id, window: window.id, visualIndex: Int32(position), selectedIndex: Int32(tab.history.count - 1),
                        navigations: tab.history.enumerated().map {
                            SNSSNavigation(tab: tab.id, index: Int32($0.offset), url: $0.element.url, title: $0.element.title, timestamp: 0)
                        }, pinned: tab.pinned)
                })
        }
        return SNSSWriter.fullState(of: SNSSReplay(windows: replayWindows, activeWindow: windows.first?.id), source: [])
    }

    /// `CommandStorageManager::Save`: the queue appended, or the full state written as a reset.
    private mutating func save(why: String) throws(FileSystemError) {
        due = nil
        // Nothing to write: no command queued, or a reset of no window (its command list is empty).
        guard pendingReset ? !windows.isEmpty : !queue.isEmpty else { return }
        let start = operations()
        let written: SNSSStoreWriter.Written?
        if pendingReset {
            written = try writer.reset(fullState, now: microseconds)
            pendingReset = false
            commandsSinceReset = 0
        } else {
            written = try writer.append(queue)
        }
        queue = []
        guard let written else { return }
        saves.append(
            Save(
                written: written, tabs: windows.flatMap { $0.tabs.map { $0.history.map(\.url) } }, startOperations: start,
                afterOperations: operations(), label: "save \(saves.count + 1) (\(why))"))
    }
}
