import Archive
import FileSystemKit
import SessionFormats
import SessionModel

/// Replays a `Session_` file's commands into windows and tabs (docs/chromium-desktop-format.md,
/// "Replay"), two ways: as Chrome does (reading stops at the first damaged record, replay at the
/// first unknown or unparsable command; tabs without a window and windows without a type are
/// dropped) and as salvage does (every record read, those past damage too, a bad command
/// skipped, a tab without a window kept in a window of its own).
public struct SNSSReplay: Sendable, Equatable {
    /// One tab as replay leaves it.
    public struct Tab: Sendable, Equatable {
        public var id: Int32
        public var window: Int32?
        public var visualIndex: Int32 = -1
        /// The selected navigation index as the file gives it (-1: none given).
        public var selectedIndex: Int32 = -1
        /// The navigations, by their index in the tab's history.
        public var navigations: [SNSSNavigation] = []
        public var pinned = false
        public var group: SNSSToken?
        /// Microseconds since 1601 (0: none).
        public var lastActive: Int64 = 0
        /// Whether a command that shaped it was read past damage or past a command Chrome stops at.
        public var salvaged = false
        /// Records that set what replay does not model, which a rewrite copies.
        public var kept: [SNSSKeptRecord] = []

        /// The position among `navigations` that Chrome selects: the first whose index is at
        /// least the selected index, else the last.
        public var selectedPosition: Int {
            navigations.firstIndex { $0.index >= selectedIndex } ?? max(navigations.count - 1, 0)
        }
    }

    /// One window as replay leaves it.
    public struct Window: Sendable, Equatable {
        public var id: Int32
        /// Its type (nil: never given, and Chrome restores no such window).
        public var type: Int32?
        public var selectedTabIndex: Int32 = -1
        public var showState: Int32 = 0
        public var userTitle = ""
        public var tabs: [Tab] = []
        /// Records that set what replay does not model (bounds, app name, workspace...), which a rewrite copies.
        public var kept: [SNSSKeptRecord] = []

        /// The position of the tab Chrome selects: the one whose visual index is the selected
        /// index, else the first.
        public var selectedPosition: Int {
            tabs.firstIndex { $0.visualIndex == selectedTabIndex } ?? 0
        }
    }

    /// A tab group's metadata.
    public struct Group: Sendable, Equatable {
        public var title: String
        public var color: UInt32
        public var collapsed: Bool
        /// Where its SetTabGroupMetadata2 record's contents are in the file (a rewrite copies them,
        /// a saved group's id with them).
        public var record: Range<Int>?
    }

    /// Where Chrome's replay stopped before the end: the record and why.
    public struct Stop: Sendable, Equatable {
        public var record: Int
        public var offset: Int
        public var id: UInt8
        /// Nil for an unknown id, else why its contents do not read.
        public var unparsable: String?
    }

    /// The windows restored, by id, each with its tabs in visual order.
    public var windows: [Window]
    /// Tabs with navigations that no window holds (Chrome drops them; salvage keeps them in `windows` too).
    public var tabsWithoutWindow: [Tab]
    /// Windows with tabs that Chrome drops for their type (never given, or not normal or popup).
    public var windowsDropped: [Window]
    public var groups: [SNSSToken: Group]
    public var activeWindow: Int32?
    /// Commands skipped (salvage) or where replay stopped (Chrome's: the first of them).
    public var stops: [Stop]
    /// Commands of the product's own whose window or tab is not known, which a rewrite copies.
    public var keptInFile: [SNSSKeptRecord] = []

    /// Every record of `file` decoded as a session command of `dialect`, for `replay` (the
    /// marker's decoding is never looked at).
    static func decodeCommands(_ file: SNSSFile, dialect: SNSSDialect = .chromium) -> [SNSSSessionCommand.Decoded] {
        file.records.map { SNSSSessionCommand.decode(id: $0.id, file.bytes, $0.contents, dialect: dialect) }
    }

    /// Replays `file`'s records: Chrome's way (`salvage` false) or salvage's; `commands` are
    /// their decodings when already made (`decodeCommands`).
    /// `windowTypes` are the types of window kept: normal and popup for `Session_` files (the
    /// session service's), app and app popup for `Apps_` files.
    public static func replay(
        _ file: SNSSFile, salvage: Bool, windowTypes: Set<Int32> = [0, 1], dialect: SNSSDialect = .chromium
    ) -> SNSSReplay {
        replay(file, salvage: salvage, commands: decodeCommands(file, dialect: dialect), windowTypes: windowTypes, dialect: dialect)
    }

    /// Both replays of `file`: Chrome's and salvage's. When Chrome reads every record and replays
    /// every command (no damage, no command it stops at), the two differ only in what they keep
    /// at the end, so the commands are applied once (`SNSSTests` holds this to two replays).
    static func replays(
        _ file: SNSSFile, windowTypes: Set<Int32> = [0, 1], dialect: SNSSDialect = .chromium
    ) -> (chrome: SNSSReplay, salvage: SNSSReplay) {
        var once = ReplayOnce(bytes: file.bytes, dialect: dialect)
        for record in file.records[..<file.readByChrome] { once.visit(record) }
        return once.finish(file, windowTypes: windowTypes)
    }

    /// Reads `bytes` as a session file and replays it both ways (`replays`), each command of a
    /// file Chrome reads whole applied as its record is framed, while its bytes are in the cache.
    static func read(
        _ bytes: FileBytes, windowTypes: Set<Int32>, dialect: SNSSDialect = .chromium
    ) -> (file: SNSSFile, chrome: SNSSReplay, salvage: SNSSReplay) {
        var once = ReplayOnce(bytes: bytes, dialect: dialect)
        let file = SNSSFile.read(bytes, commands: .session) { once.visit($0) }
        let both = once.finish(file, windowTypes: windowTypes)
        return (file, both.chrome, both.salvage)
    }

    static func replay(
        _ file: SNSSFile, salvage: Bool, commands: [SNSSSessionCommand.Decoded], windowTypes: Set<Int32>, dialect: SNSSDialect = .chromium
    ) -> SNSSReplay {
        var state = ReplayState(dialect: dialect)
        let records = salvage ? file.records[...] : file.records[..<file.readByChrome]
        var stops: [Stop] = []
        for (index, record) in zip(records.indices, records) where record.id != SNSSFile.markerID {
            let decoded = commands[index]
            switch decoded {
            case .command(let command):
                state.apply(command, record: record, in: file.bytes, salvaged: record.salvaged || !stops.isEmpty)
            case .own(let own): state.keep(own, record: record, in: file.bytes)
            case .unknown, .unparsable, .unparsableAfter:
                var reason: String?
                if case .unparsable(let why) = decoded { reason = why }
                if case .unparsableAfter(let part, let why) = decoded {
                    state.apply(part, salvaged: record.salvaged || !stops.isEmpty)
                    reason = why
                }
                stops.append(Stop(record: index, offset: record.offset, id: record.id, unparsable: reason))
                if !salvage { return state.finish(stops: stops, salvage: false, windowTypes: windowTypes) }
            }
        }
        // What can be read of a navigation the file cuts short.
        if salvage, let cut = file.cutRecord, cut.id == SNSSCommandSet.session.navigationID,
            let navigation = SNSSNavigation.decodeCut(file.bytes, cut.contents)
        {
            state.apply(.navigation(navigation), salvaged: true)
        }
        return state.finish(stops: stops, salvage: salvage, windowTypes: windowTypes)
    }
}

/// Both replays made in one pass over the records Chrome reads, which serves while every one of
/// them is a command Chrome applies; the first that is not sends `finish` down the two replays.
private struct ReplayOnce {
    let bytes: FileBytes
    let dialect: SNSSDialect
    var state: ReplayState
    var whole = true

    init(bytes: FileBytes, dialect: SNSSDialect) {
        self.bytes = bytes
        self.dialect = dialect
        state = ReplayState(dialect: dialect)
    }

    /// Applies the command of `record` (one Chrome reads), while every command so far was whole.
    mutating func visit(_ record: SNSSFile.Record) {
        guard whole, record.id != SNSSFile.markerID else { return }
        switch SNSSSessionCommand.decode(id: record.id, bytes, record.contents, dialect: dialect) {
        case .command(let command): state.apply(command, record: record, in: bytes, salvaged: false)
        case .own(let own): state.keep(own, record: record, in: bytes)
        case .unknown, .unparsable, .unparsableAfter: whole = false
        }
    }

    /// Both replays of `file`, whose records Chrome reads were all visited: from the one pass
    /// when the file is whole, else each made on its own.
    consuming func finish(_ file: SNSSFile, windowTypes: Set<Int32>) -> (chrome: SNSSReplay, salvage: SNSSReplay) {
        if whole, file.damage.isEmpty, file.cutRecord == nil { return state.finishBoth(windowTypes: windowTypes) }
        let commands = SNSSReplay.decodeCommands(file, dialect: dialect)
        return (
            SNSSReplay.replay(file, salvage: false, commands: commands, windowTypes: windowTypes, dialect: dialect),
            SNSSReplay.replay(file, salvage: true, commands: commands, windowTypes: windowTypes, dialect: dialect)
        )
    }
}

/// The maps replay fills, by id, before windows and tabs are put together.
private struct ReplayState {
    /// How the file numbers its commands.
    let dialect: SNSSDialect
    /// The tabs in the order first met, found by id through `tabSlots` (a closed tab's slot is
    /// left empty, and a tab of its id met later takes a new one).
    var tabs: [SNSSReplay.Tab] = []
    var tabSlots = SessionIDSlots()
    var windows: [Int32: SNSSReplay.Window] = [:]
    var groups: [SNSSToken: SNSSReplay.Group] = [:]
    var activeWindow: Int32?
    var keptInFile: [SNSSKeptRecord] = []

    init(dialect: SNSSDialect) { self.dialect = dialect }

    /// Keeps a command of the product's own with the window or tab its first field names, or
    /// with the file when that is not known: never applied, and it never marks a tab salvaged.
    mutating func keep(_ own: SNSSDialect.OwnCommand, record: SNSSFile.Record, in bytes: FileBytes) {
        let kept = SNSSKeptRecord(id: record.id, contents: record.contents, meaning: nil)
        let subject = own.subject == .file ? nil : SNSSKeptRecord.firstField(bytes, record.contents, pickled: own.pickled)
        switch (own.subject, subject) {
        case (.window, let id?): window(id) { $0.kept.keep(kept) }
        case (.tab, let id?): tab(id, salvaged: false) { $0.kept.keep(kept) }
        default: keptInFile.append(kept)
        }
    }

    /// Changes the tab in place (a copy out of the map would copy its navigations at every change).
    mutating func tab(_ id: Int32, salvaged: Bool, _ change: (inout SNSSReplay.Tab) -> Void) {
        let slot: Int
        if let found = tabSlots[id] {
            slot = found
        } else {
            slot = tabs.count
            tabs.append(SNSSReplay.Tab(id: id))
            tabSlots.set(id, slot)
        }
        change(&tabs[slot])
        if salvaged { tabs[slot].salvaged = true }
    }

    mutating func window(_ id: Int32, _ change: (inout SNSSReplay.Window) -> Void) {
        change(&windows[id, default: SNSSReplay.Window(id: id)])
    }

    /// Applies `command`, read from `record` of `bytes`: a record replay does not model is kept
    /// with its tab or window, and a group's metadata keeps where its record is.
    mutating func apply(_ command: SNSSSessionCommand, record: SNSSFile.Record, in bytes: FileBytes, salvaged: Bool) {
        // The command's id as Chromium numbers it (the file's own in Chromium's dialect).
        let id: UInt8
        if dialect.isChromium {
            id = record.id
        } else if case .chromium(let chromium) = dialect.meaning(of: record.id, count: record.contents.count) {
            id = chromium
        } else {
            id = record.id
        }
        if let subject = SNSSKeptRecord.subject(id: id, bytes, record.contents) {
            let kept = SNSSKeptRecord(id: record.id, contents: record.contents, meaning: id)
            switch subject {
            case .window(let id): window(id) { $0.kept.keep(kept) }
            // What it keeps shapes no tab Chrome restores: it never marks the tab salvaged.
            case .tab(let id): tab(id, salvaged: false) { $0.kept.keep(kept) }
            }
        }
        apply(command, salvaged: salvaged)
        if case .setTabGroupMetadata(let group, _, _, _) = command { groups[group]?.record = record.contents }
    }

    mutating func apply(_ command: SNSSSessionCommand, salvaged: Bool) {
        switch command {
        case .setTabWindow(let window, let tab): self.tab(tab, salvaged: salvaged) { $0.window = window }
        case .setTabIndexInWindow(let tab, let index): self.tab(tab, salvaged: salvaged) { $0.visualIndex = index }
        case .prunedFromBack(let tab, let index):
            self.tab(tab, salvaged: salvaged) { $0.navigations.removeAll { $0.index >= index } }
        case .navigation(let navigation):
            self.tab(navigation.tab, salvaged: salvaged) { tab in
                // Room for a few at once: a tab's history grows one navigation at a time.
                if tab.navigations.isEmpty { tab.navigations.reserveCapacity(4) }
                if let at = tab.navigations.firstIndex(where: { $0.index >= navigation.index }) {
                    if tab.navigations[at].index == navigation.index {
                        tab.navigations[at] = navigation
                    } else {
                        tab.navigations.insert(navigation, at: at)
                    }
                } else {
                    tab.navigations.append(navigation)
                }
            }
        case .setSelectedNavigationIndex(let tab, let index): self.tab(tab, salvaged: salvaged) { $0.selectedIndex = index }
        case .setSelectedTabInIndex(let window, let index): self.window(window) { $0.selectedTabIndex = index }
        case .setWindowType(let window, let type): self.window(window) { $0.type = type }
        case .pruned(let tab, let index, let count):
            self.tab(tab, salvaged: salvaged) { tab in
                let end = Int64(index) + Int64(count)
                tab.navigations.removeAll { $0.index >= index && Int64($0.index) < end }
                for at in tab.navigations.indices where Int64(tab.navigations[at].index) >= end {
                    tab.navigations[at].index = Int32(clamping: Int64(tab.navigations[at].index) - Int64(count))
                }
                if Int64(tab.selectedIndex) >= end {
                    tab.selectedIndex = Int32(clamping: Int64(tab.selectedIndex) - Int64(count))
                } else if tab.selectedIndex >= index {
                    tab.selectedIndex = index &- 1
                }
            }
        case .setPinnedState(let tab, let pinned): self.tab(tab, salvaged: salvaged) { $0.pinned = pinned }
        case .setWindowBounds(let window, let showState): self.window(window) { $0.showState = showState }
        case .tabClosed(let tab):
            if let slot = tabSlots.remove(tab) { tabs[slot] = SNSSReplay.Tab(id: tab) }
        case .windowClosed(let window): windows[window] = nil
        case .setActiveWindow(let window): activeWindow = window
        case .lastActiveTime(let tab, let time): self.tab(tab, salvaged: salvaged) { $0.lastActive = time }
        case .setTabGroup(let tab, let group): self.tab(tab, salvaged: salvaged) { $0.group = group }
        case .setTabGroupMetadata(let group, let title, let color, let collapsed):
            groups[group] = SNSSReplay.Group(title: title, color: color, collapsed: collapsed)
        case .setWindowUserTitle(let window, let title): self.window(window) { $0.userTitle = title }
        case .other: break
        }
    }

    /// Puts tabs into windows as Chrome does; salvage also keeps each window-less tab's run in a
    /// window of its own and windows whose type was never given.
    mutating func finish(stops: [SNSSReplay.Stop], salvage: Bool, windowTypes: Set<Int32>) -> SNSSReplay {
        let windows = windowsWithTabs()
        return replay(of: windows, stops: stops, salvage: salvage, windowTypes: windowTypes)
    }

    /// `finish` of both replays when every command was applied to both alike: the tabs are put
    /// into windows once.
    mutating func finishBoth(windowTypes: Set<Int32>) -> (chrome: SNSSReplay, salvage: SNSSReplay) {
        let windows = windowsWithTabs()
        return (
            replay(of: windows, stops: [], salvage: false, windowTypes: windowTypes),
            replay(of: windows, stops: [], salvage: true, windowTypes: windowTypes)
        )
    }

    /// Every window by id with its tabs that have navigations, in visual order (ties by id), and
    /// the tabs with navigations that no window holds, by id. The tabs are moved out of `tabs`
    /// (each once, never copied) into arrays of the size they need.
    private mutating func windowsWithTabs() -> (byID: [Int32: SNSSReplay.Window], withoutWindow: [SNSSReplay.Tab]) {
        var windows = self.windows
        var placed: [(window: Int32, visualIndex: Int32, id: Int32, slot: Int)] = []
        placed.reserveCapacity(tabs.count)
        var withoutWindow: [(id: Int32, slot: Int)] = []
        for slot in tabs.indices where !tabs[slot].navigations.isEmpty {
            if let window = tabs[slot].window {
                placed.append((window, tabs[slot].visualIndex, tabs[slot].id, slot))
            } else {
                withoutWindow.append((tabs[slot].id, slot))
            }
        }
        placed.sort { ($0.window, $0.visualIndex, $0.id) < ($1.window, $1.visualIndex, $1.id) }
        var start = 0
        while start < placed.count {
            let window = placed[start].window
            var end = start + 1
            while end < placed.count, placed[end].window == window { end += 1 }
            var inWindow: [SNSSReplay.Tab] = []
            inWindow.reserveCapacity(end - start)
            for tab in placed[start..<end] { inWindow.append(takeTab(at: tab.slot)) }
            windows[window, default: SNSSReplay.Window(id: window)].tabs = inWindow
            start = end
        }
        withoutWindow.sort { $0.id < $1.id }
        return (windows, withoutWindow.map { takeTab(at: $0.slot) })
    }

    /// The tab at `slot`, moved out (an empty tab is left in its place).
    private mutating func takeTab(at slot: Int) -> SNSSReplay.Tab {
        var tab = SNSSReplay.Tab(id: tabs[slot].id)
        swap(&tab, &tabs[slot])
        return tab
    }

    private func replay(
        of made: (byID: [Int32: SNSSReplay.Window], withoutWindow: [SNSSReplay.Tab]), stops: [SNSSReplay.Stop], salvage: Bool,
        windowTypes: Set<Int32>
    ) -> SNSSReplay {
        var kept: [SNSSReplay.Window] = []
        var dropped: [SNSSReplay.Window] = []
        for id in made.byID.keys.sorted() {
            guard let window = made.byID[id], !window.tabs.isEmpty else { continue }
            if let type = window.type, windowTypes.contains(type) {
                kept.append(window)
            } else {
                dropped.append(window)
                if salvage && window.type == nil { kept.append(window) }
            }
        }
        let withoutWindow = made.withoutWindow
        if salvage && !withoutWindow.isEmpty {
            // A window of their own, after the others, as repair writes it.
            // An id no window of the file has, not even one without tabs that is the active one.
            let id = max(made.byID.keys.max() ?? 0, activeWindow ?? 0) &+ 1
            kept.append(SNSSReplay.Window(id: id, type: nil, tabs: withoutWindow))
        }
        var usedGroups = Set<SNSSToken>()
        for window in kept {
            for tab in window.tabs { if let group = tab.group { usedGroups.insert(group) } }
        }
        return SNSSReplay(
            windows: kept, tabsWithoutWindow: withoutWindow, windowsDropped: dropped, groups: groups.filter { usedGroups.contains($0.key) },
            activeWindow: activeWindow.flatMap { id in kept.contains { $0.id == id } ? id : nil }, stops: stops, keptInFile: keptInFile)
    }
}
