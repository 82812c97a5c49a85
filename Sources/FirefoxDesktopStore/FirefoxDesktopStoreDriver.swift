import Archive
@_spi(CrashTesting) import CrashSimulator
import FileSystemKit
import FirefoxDesktop
import SessionFormats
import SessionModel
import SessionStore

/// Plays a workload's events on a model of Firefox desktop's session store: its windows and tabs
/// in memory, `SessionSaver`'s timing (a change is saved two seconds later, and no sooner than
/// fifteen seconds after the last save), the final write at shutdown, crashes, and launches that
/// load what Firefox loads (`SessionstoreLoad`), each write made by a `SessionstoreWriter`.
///
/// Private tabs are not saved (Firefox keeps private windows out of its session files); groups
/// change nothing; `background` is no event of a desktop browser; a window that disconnects is
/// closed (it goes to the closed windows, which the model does not keep).
struct FirefoxDesktopStoreDriver {
    /// A write that returned: what it wrote, the tabs it held, and the operations around it.
    struct Save: Sendable {
        var bytes: [UInt8]
        /// Each tab's identity (its entries' URLs).
        var tabs: [[String]]
        var startOperations: Int
        var afterOperations: Int
        var label: String
    }

    private struct Tab {
        var label: String
        var url: String
        var title: String
        var isPrivate: Bool
        var pinned: Bool
        var used: Int64
    }

    /// `browser.sessionstore.interval`: the least time between two saves, in seconds.
    static let intervalSeconds = 15.0
    /// The delay `SessionSaver.runDelayed` gives a change.
    static let delaySeconds = 2.0

    private var writer: SessionstoreWriter
    private let operations: () -> Int
    private var windows: [(name: String, tabs: [Tab], active: String?)] = []
    /// Virtual time, seconds since 1970.
    private var now = 1_764_000_000.0
    private var lastSave = -Double.infinity
    private var due: Double?
    private var running = false
    private(set) var saves: [Save] = []
    private(set) var events: [(operation: Int, text: String)] = []

    init(writer: SessionstoreWriter, operations: @escaping () -> Int) {
        self.writer = writer
        self.operations = operations
    }

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
            launch()
            return
        case .crashDuringRestore:
            launch()
            stop()
            return
        default: break
        }
        guard running else { return }
        switch event {
        case .launch, .crashDuringRestore, .background, .group: break
        case .open(let label, let url, let title, let window, let incognito):
            let tab = Tab(label: label, url: url, title: title, isPrivate: incognito, pinned: false, used: milliseconds)
            change(window) { $0.append(tab) }
        case .navigate(let label, let url, let title):
            changeTab(label) {
                $0.url = url
                $0.title = title
            }
        case .close(let label):
            guard let name = windowName(holding: label) else { return }
            change(name) { $0.removeAll { $0.label == label } }
        case .move(let label, let index):
            guard let name = windowName(holding: label) else { return }
            change(name) { tabs in
                guard let from = tabs.firstIndex(where: { $0.label == label }) else { return }
                let tab = tabs.remove(at: from)
                tabs.insert(tab, at: min(max(index, 0), tabs.count))
            }
        case .activate(let label):
            guard let index = windows.firstIndex(where: { $0.tabs.contains { $0.label == label } }) else { return }
            windows[index].active = label
            let time = milliseconds
            changeTab(label) { $0.used = time }
        case .pin(let label, let pinned):
            changeTab(label) { $0.pinned = pinned }
        case .closeAllIncognito:
            for name in windows.map(\.name) { change(name) { $0.removeAll(where: \.isPrivate) } }
        case .disconnect(let name):
            windows.removeAll { $0.name == name }
            schedule()
        case .wait(let seconds):
            try pass(seconds)
        case .crash:
            stop()
        case .shutdown:
            try save(final: true, why: "shutdown")
            stop()
        }
    }

    private var milliseconds: Int64 { Int64(now * 1000) }

    /// Lets `seconds` pass, making the delayed save when it falls due.
    private mutating func pass(_ seconds: Double) throws(FileSystemError) {
        let end = now + seconds
        if let due, due <= end {
            now = due
            try save(final: false, why: "delayed")
        }
        now = end
    }

    /// Firefox stops: a delayed save not yet made is never made.
    private mutating func stop() {
        running = false
        due = nil
    }

    /// Firefox starts: the session is what it loads from disk, and the writer goes on from that file.
    private mutating func launch() {
        running = true
        lastSave = -Double.infinity
        let tree = ReadableTree(fileSystem: writer.fileSystem, root: writer.profile)
        let known = windows.flatMap(\.tabs)
        windows = []
        writer.state = .empty
        guard let located = try? BrowserFamilies.locate(tree: tree, ancestry: [], browser: FirefoxDesktopFamily()) else { return }
        let read = InputRead(located, depth: .lists)
        let load = SessionstoreLoad(read)
        guard let loaded = load.loaded else { return }
        let role = SessionstoreRole.of(path: read.sessions[load.candidates[loaded].session].source.id)?.role
        writer.state = role == .clean ? .clean : role == .recovery ? .recovery : .other
        var used = Set<String>()
        for (index, window) in (read.sessions[load.candidates[loaded].session].sessionstore?.decoded?.document?.windows ?? []).enumerated()
        {
            var tabs: [Tab] = []
            for tab in window.tabs {
                let url = tab.currentEntry?.url ?? ""
                let label = known.first { $0.url == url && !used.contains($0.label) }?.label ?? "loaded-\(index)-\(tabs.count)"
                used.insert(label)
                tabs.append(
                    Tab(
                        label: label, url: url, title: tab.currentEntry?.title ?? "", isPrivate: false, pinned: tab.pinned,
                        used: tab.lastAccessed ?? 0))
            }
            let active = window.selectedIndex >= 0 ? tabs[window.selectedIndex].label : nil
            windows.append((index == 0 ? WorkloadEvent.mainWindow : "window-\(index + 1)", tabs, active))
        }
    }

    /// Changes window `name`'s tabs (the window made when new) and schedules a save.
    private mutating func change(_ name: String, _ body: (inout [Tab]) -> Void) {
        if let index = windows.firstIndex(where: { $0.name == name }) {
            body(&windows[index].tabs)
        } else {
            var tabs: [Tab] = []
            body(&tabs)
            windows.append((name, tabs, nil))
        }
        schedule()
    }

    /// `SessionSaver.runDelayed`: a save two seconds on, and no sooner than the interval after the last.
    private mutating func schedule() {
        guard due == nil else { return }
        due = max(lastSave + Self.intervalSeconds, now + Self.delaySeconds)
    }

    private mutating func changeTab(_ label: String, _ body: (inout Tab) -> Void) {
        guard let name = windowName(holding: label) else { return }
        change(name) { tabs in
            guard let index = tabs.firstIndex(where: { $0.label == label }) else { return }
            body(&tabs[index])
        }
    }

    private func windowName(holding label: String) -> String? {
        windows.first { $0.tabs.contains { $0.label == label } }?.name
    }

    /// Writes the session as Firefox would now: its windows' regular tabs, one entry each.
    private mutating func save(final: Bool, why: String) throws(FileSystemError) {
        due = nil
        lastSave = now
        var windowValues: [JSONValue] = []
        var identities: [[String]] = []
        for window in windows {
            let kept = window.tabs.filter { !$0.isPrivate }
            guard !kept.isEmpty else { continue }
            let tabs = kept.map { tab -> JSONValue in
                .object([
                    ("entries", .array([.object([("url", .string(tab.url)), ("title", .string(tab.title))])])),
                    ("lastAccessed", .int(tab.used)),
                    ("pinned", .bool(tab.pinned)), ("hidden", .bool(false)), ("index", .int(1))
                ])
            }
            identities += kept.map { [$0.url] }
            let selected = (kept.firstIndex { $0.label == window.active } ?? 0) + 1
            windowValues.append(.object([("tabs", .array(tabs)), ("selected", .int(Int64(selected))), ("_closedTabs", .array([]))]))
        }
        let document = JSONValue.object([
            ("version", .array([.string("sessionrestore"), .int(1)])), ("windows", .array(windowValues)),
            ("selectedWindow", .int(windowValues.isEmpty ? 0 : 1)), ("_closedWindows", .array([])),
            (
                "session",
                .object([("lastUpdate", .int(milliseconds)), ("recentCrashes", .int(0)), ("state", .string(final ? "stopped" : "running"))])
            ),
            ("global", .object([]))
        ])
        let bytes: [UInt8]
        do {
            bytes = try MozLz4.encode(document.serializedBytes(pretty: false), file: "session")
        } catch {
            throw .io(operation: "compress", path: writer.path(.recovery), code: 0, reason: error.description)
        }
        let start = operations()
        // At shutdown Firefox removes the recovery files unless it restores at every launch (its default does not).
        try writer.write(bytes, final: final, cleanup: final)
        saves.append(
            Save(
                bytes: bytes, tabs: identities, startOperations: start, afterOperations: operations(),
                label: "save \(saves.count + 1) (\(why))"))
    }
}
