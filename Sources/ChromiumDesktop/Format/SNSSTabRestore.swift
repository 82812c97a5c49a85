import Archive
import FileSystemKit
import SessionFormats
import SessionModel

/// The recently closed tabs and windows of a `Tabs_` file (the tab-restore service's commands,
/// docs/chromium-desktop-format.md, "Tab restore commands"), newest first. The commands are
/// positional: a window (or group) command says how many tabs follow, and each tab is the run of
/// commands from its SelectedNavigationInTab to the next. Read as salvage reads: a command that
/// does not parse is skipped, and the records past damage are read too.
public struct SNSSTabRestore: Sendable {
    /// A closed tab: its id, navigations (by position) and the selected one.
    public struct ClosedTab: Sendable, Equatable {
        public var id: Int32
        public var selectedIndex: Int32
        /// Microseconds since 1601 (0: none).
        public var time: Int64
        public var navigations: [SNSSNavigation] = []
        public var pinned = false
        public var salvaged = false
    }

    /// A closed window and its tabs.
    public struct ClosedWindow: Sendable, Equatable {
        public var id: Int32
        public var selectedTab: Int32
        public var time: Int64
        public var tabs: [ClosedTab] = []
    }

    public var closedTabs: [ClosedTab]
    public var closedWindows: [ClosedWindow]

    /// Reads the closed entries of `file`.
    public static func read(_ file: SNSSFile) -> SNSSTabRestore {
        enum Entry {
            case tab(ClosedTab)
            case window(ClosedWindow, expecting: Int)
        }
        var entries: [Entry] = []
        var windowTabsLeft = 0
        var groupTabsLeft = 0
        func addTab(_ tab: ClosedTab) {
            if windowTabsLeft > 0, case .window(var window, let expecting) = entries.last {
                window.tabs.append(tab)
                entries[entries.count - 1] = .window(window, expecting: expecting)
                windowTabsLeft -= 1
            } else {
                if groupTabsLeft > 0 { groupTabsLeft -= 1 }
                entries.append(.tab(tab))
            }
        }
        var current: ClosedTab?
        func flush() {
            if let tab = current { addTab(tab) }
            current = nil
        }
        for record in file.records where record.id != SNSSFile.markerID {
            let f = SNSSSessionCommand.FixedFields(bytes: file.bytes, start: record.contents.lowerBound)
            switch record.id {
            case 4 where record.contents.count == 8 || record.contents.count == 16:
                flush()
                current = ClosedTab(
                    id: f.int32(0), selectedIndex: f.int32(4), time: record.contents.count == 16 ? f.int64(8) : 0, salvaged: record.salvaged
                )
            case 1:
                guard let navigation = SNSSNavigation.decode(file.bytes, record.contents), current != nil else { continue }
                current?.navigations.append(navigation)
            case 5:
                current?.pinned = true
            case 2 where record.contents.count == 4:
                flush()
                let id = f.int32(0)
                entries.removeAll { entry in
                    switch entry {
                    case .tab(let tab): tab.id == id
                    case .window(let window, _): window.id == id
                    }
                }
            case 9:
                flush()
                guard var pickle = PickleReader(file.bytes, record.contents), let id = pickle.int32(), let selected = pickle.int32(),
                    let count = pickle.int32(), count > 0
                else { continue }
                let time = pickle.int64() ?? 0
                entries.append(.window(ClosedWindow(id: id, selectedTab: selected, time: time), expecting: Int(count)))
                windowTabsLeft = Int(count)
            case 3 where record.contents.count == 12 || record.contents.count == 24:
                flush()
                let count = f.int32(8)
                guard count > 0 else { continue }
                entries.append(
                    .window(
                        ClosedWindow(id: f.int32(0), selectedTab: f.int32(4), time: record.contents.count == 24 ? f.int64(16) : 0),
                        expecting: Int(count)))
                windowTabsLeft = Int(count)
            case 13:
                flush()
                guard var pickle = PickleReader(file.bytes, record.contents), pickle.token() != nil, pickle.int32() != nil,
                    let count = pickle.int32(), count > 0
                else { continue }
                groupTabsLeft = Int(count)
            default:
                continue
            }
        }
        flush()
        var tabs: [ClosedTab] = []
        var windows: [ClosedWindow] = []
        // Written oldest first: shown newest first, as Chrome lists them.
        for entry in entries.reversed() {
            switch entry {
            case .tab(let tab) where !tab.navigations.isEmpty: tabs.append(tab)
            case .window(let window, _) where window.tabs.contains(where: { !$0.navigations.isEmpty }): windows.append(window)
            default: break
            }
        }
        return SNSSTabRestore(closedTabs: tabs, closedWindows: windows)
    }

    /// The closed entries as one model session named `name`, with no open tab.
    public func session(name: String, history: Bool) -> Session {
        func model(_ tab: ClosedTab) -> Tab {
            let position = min(max(Int(tab.selectedIndex), 0), max(tab.navigations.count - 1, 0))
            let selected = tab.navigations.isEmpty ? nil : tab.navigations[position]
            var model = Tab(
                id: tab.id, title: selected?.title ?? "", url: selected?.url ?? "", lastActiveTime: Timestamp(microseconds: tab.time),
                navigationItemCount: Int32(clamping: tab.navigations.count), pinned: tab.pinned)
            model.salvaged = tab.salvaged
            if history {
                model.history = TabHistory(
                    lastCommittedIndex: Int32(position),
                    items: tab.navigations.map {
                        NavigationItem(url: $0.url, title: $0.title, timestamp: Timestamp(microseconds: $0.timestamp))
                    })
            }
            return model
        }
        return Session(
            id: name, format: .snss, closedTabs: closedTabs.map(model),
            closedWindows: closedWindows.enumerated().map { number, window in
                Session(id: "\(name)#closed-\(number + 1)", format: .snss, activeIndex: 0, tabs: window.tabs.map(model))
            })
    }
}
