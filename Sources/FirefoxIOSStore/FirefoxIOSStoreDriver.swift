@_spi(CrashTesting) import CrashSimulator
import FileSystemKit
import FirefoxIOS
import SessionFormats
import SessionModel

/// Plays a workload's events on a model of Firefox for iOS's tab store: its windows and tabs in
/// memory, the two-second throttle of `DefaultTabDataStore`, forced saves, crashes and launches
/// that load what `FirefoxWindowLoad` loads, each save written by a `FirefoxIOSStoreWriter`.
///
/// Each window is saved on its own, as on an iPad; private tabs are not saved (Firefox's default
/// setting closes them). Pins and groups are no part of Firefox's window file and change nothing.
struct FirefoxIOSStoreDriver {
    /// A completed save: which window, what it wrote, and the operations issued when it returned.
    struct Save: Sendable {
        var window: String
        var bytes: [UInt8]
        /// The UUIDs of the tabs it wrote, and their pages.
        var tabs: [String]
        var pages: [String]
        /// The operations issued when it began, and when it returned.
        var startOperations: Int
        var afterOperations: Int
        var label: String
    }

    private struct Tab {
        var label: String
        var id: String
        var url: String
        var title: String
        var isPrivate: Bool
        var created: Double
        var used: Double
    }

    private struct Window {
        var id: String
        var tabs: [Tab] = []
        var active: String?
        /// When the throttled save fires (nil: none scheduled).
        var due: Double?
    }

    /// The seconds between a first change and its throttled save.
    static let throttleSeconds = 2.0

    private var writer: FirefoxIOSStoreWriter
    private let operations: () -> Int
    private var windows: [(name: String, window: Window)] = []
    /// Virtual time, seconds since 2001.
    private var now = 786_000_000.0
    private var uuidCount = 0
    private var running = false
    private(set) var saves: [Save] = []
    /// Each event's text with the operations issued before it.
    private(set) var events: [(operation: Int, text: String)] = []

    /// A driver writing with `writer`; `operations` tells how many file operations were issued so far.
    init(writer: FirefoxIOSStoreWriter, operations: @escaping () -> Int) {
        self.writer = writer
        self.operations = operations
    }

    /// The window ids saved so far, in the order they were made.
    var windowIDs: [String] { windows.map(\.window.id) }

    /// Plays `workload` from its first event to its last.
    mutating func play(_ workload: Workload) throws(SimulatorError) {
        for step in workload.steps {
            events.append((operations(), step.text))
            do { try handle(step.event) } catch { throw .storeFailed(event: step.text, reason: error.description) }
        }
    }

    private mutating func handle(_ event: WorkloadEvent) throws(FileSystemError) {
        if case .launch = event {
            launch()
            return
        }
        if case .crashDuringRestore = event {
            launch()
            crash()
            return
        }
        guard running else { return }
        switch event {
        case .launch, .crashDuringRestore: break
        case .open(let label, let url, let title, let window, let incognito):
            let tab = Tab(label: label, id: nextUUID(), url: url, title: title, isPrivate: incognito, created: now, used: now)
            change(window) { $0.tabs.append(tab) }
        case .navigate(let label, let url, let title):
            changeTab(label) {
                $0.url = url
                $0.title = title
            }
        case .close(let label):
            guard let name = windowName(holding: label) else { return }
            change(name) { $0.tabs.removeAll { $0.label == label } }
        case .move(let label, let index):
            guard let name = windowName(holding: label) else { return }
            change(name) { window in
                guard let from = window.tabs.firstIndex(where: { $0.label == label }) else { return }
                let tab = window.tabs.remove(at: from)
                window.tabs.insert(tab, at: min(max(index, 0), window.tabs.count))
            }
        case .activate(let label):
            guard let name = windowName(holding: label) else { return }
            change(name) { $0.active = label }
            let time = now
            changeTab(label) { $0.used = time }
        case .pin, .group: break
        case .closeAllIncognito:
            for name in windows.map(\.name) { change(name) { $0.tabs.removeAll(where: \.isPrivate) } }
        case .background:
            for name in windows.map(\.name) { try save(name, forced: true, why: "background") }
        case .disconnect(let name):
            try save(name, forced: true, why: "disconnect")
        case .wait(let seconds):
            try pass(seconds)
        case .crash:
            crash()
        case .shutdown:
            for name in windows.map(\.name) { try save(name, forced: true, why: "shutdown") }
            running = false
            for index in windows.indices { windows[index].window.due = nil }
        }
    }

    /// Lets `seconds` pass, firing each throttled save that falls due, in order.
    private mutating func pass(_ seconds: Double) throws(FileSystemError) {
        let end = now + seconds
        while let next = windows.enumerated().compactMap({ entry in entry.element.window.due.map { (entry.offset, $0) } })
            .min(by: { $0.1 < $1.1 }), next.1 <= end
        {
            now = next.1
            windows[next.0].window.due = nil
            try save(windows[next.0].name, forced: false, why: "throttled")
        }
        now = end
    }

    /// The app dies: a throttled save not yet made is never made.
    private mutating func crash() {
        running = false
        for index in windows.indices { windows[index].window.due = nil }
    }

    /// The app starts: each window is what Firefox loads from disk (tabs it lost are gone).
    private mutating func launch() {
        running = true
        for index in windows.indices {
            let loaded = FirefoxWindowLoad.load(windows[index].window.id, from: writer.fileSystem, paths: writer.paths)
            let known = windows[index].window.tabs
            var window = Window(id: windows[index].window.id)
            for tab in loaded.window?.tabs ?? [] {
                let label = known.first { $0.id == tab.id }?.label ?? tab.id
                window.tabs.append(
                    Tab(
                        label: label, id: tab.id, url: tab.siteURL, title: tab.title ?? "", isPrivate: tab.isPrivate,
                        created: tab.createdAtTime ?? now, used: tab.lastUsedTime ?? now))
            }
            window.active = window.tabs.first { $0.id == loaded.window?.activeTabID }?.label
            windows[index].window = window
        }
    }

    /// Changes window `name` (made when new) and schedules its throttled save.
    private mutating func change(_ name: String, _ body: (inout Window) -> Void) {
        let index: Int
        if let found = windows.firstIndex(where: { $0.name == name }) {
            index = found
        } else {
            windows.append((name, Window(id: nextUUID())))
            index = windows.count - 1
        }
        body(&windows[index].window)
        if windows[index].window.due == nil { windows[index].window.due = now + Self.throttleSeconds }
    }

    private mutating func changeTab(_ label: String, _ body: (inout Tab) -> Void) {
        guard let name = windowName(holding: label) else { return }
        change(name) { window in
            guard let index = window.tabs.firstIndex(where: { $0.label == label }) else { return }
            body(&window.tabs[index])
        }
    }

    private func windowName(holding label: String) -> String? {
        windows.first { $0.window.tabs.contains { $0.label == label } }?.name
    }

    /// Saves window `name` as Firefox would now: its regular tabs, the active one named.
    private mutating func save(_ name: String, forced: Bool, why: String) throws(FileSystemError) {
        guard let index = windows.firstIndex(where: { $0.name == name }) else { return }
        let window = windows[index].window
        let kept = window.tabs.filter { !$0.isPrivate }
        let active = kept.first { $0.label == window.active }?.id ?? nextUUID()
        let data = FirefoxWindowData(
            id: window.id, activeTabID: active,
            tabs: kept.map {
                FirefoxTabData(
                    id: $0.id, title: $0.title, siteURL: $0.url, isPrivate: false, lastUsedTime: $0.used, createdAtTime: $0.created)
            })
        let bytes = FirefoxWindowEncoder.encode(data)
        let start = operations()
        try writer.save(window: window.id, bytes: bytes, backingUp: !forced)
        saves.append(
            Save(
                window: window.id, bytes: bytes, tabs: kept.map(\.id), pages: kept.map(\.url), startOperations: start,
                afterOperations: operations(),
                label: "save \(saves.count + 1) (\(why)) of window \(name)"))
    }

    /// A UUID of the run, the same in every run.
    private mutating func nextUUID() -> String {
        uuidCount += 1
        let hex = String(uuidCount, radix: 16, uppercase: true)
        return "00000000-0000-4000-8000-" + String(repeating: "0", count: max(0, 12 - hex.count)) + hex
    }
}
