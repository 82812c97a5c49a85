import Archive
import FileSystemKit
import SessionFormats
import SessionModel

/// One session command as Chrome's session service schedules it while a browser runs
/// (docs/chromium-desktop-format.md, "Session commands" and "The writer"): its id and contents,
/// laid out as `SNSSSessionCommand` reads them back.
public struct SNSSCommand: Sendable, Equatable {
    public var id: UInt8
    public var contents: [UInt8]

    public init(id: UInt8, contents: [UInt8]) {
        self.id = id
        self.contents = contents
    }

    /// The record as a file holds it: its size (the id byte and the contents, little-endian
    /// uint16), its id, its contents.
    public var record: [UInt8] {
        let size = contents.count + 1
        return [UInt8(truncatingIfNeeded: size), UInt8(truncatingIfNeeded: size >> 8), id] + contents
    }

    /// Whether the command closes a tab or a window (a reset is never scheduled on one: Chrome's
    /// `IsClosingCommand`).
    public var isClosing: Bool { id == 16 || id == 17 }

    /// A command of int32 fields (`SessionID`s, indices, a bool as an int32).
    static func fixed(_ id: UInt8, _ fields: [Int32]) -> SNSSCommand {
        var contents: [UInt8] = []
        for field in fields { contents += withUnsafeBytes(of: field.littleEndian, Array.init) }
        return SNSSCommand(id: id, contents: contents)
    }

    /// A command of an int32 id, 4 bytes of padding and an int64 (a close or last active time).
    static func timed(_ id: UInt8, _ subject: Int32, _ time: Int64) -> SNSSCommand {
        let contents =
            withUnsafeBytes(of: subject.littleEndian, Array.init) + [0, 0, 0, 0] + withUnsafeBytes(of: time.littleEndian, Array.init)
        return SNSSCommand(id: id, contents: contents)
    }

    /// SetTabWindow (0): the tab belongs to the window.
    public static func setTabWindow(window: Int32, tab: Int32) -> SNSSCommand { fixed(0, [window, tab]) }
    /// SetTabIndexInWindow (2): the tab's visual index.
    public static func setTabIndexInWindow(tab: Int32, index: Int32) -> SNSSCommand { fixed(2, [tab, index]) }
    /// UpdateTabNavigation (6): one entry of the tab's history, encoded afresh.
    public static func updateTabNavigation(_ navigation: SNSSNavigation) -> SNSSCommand {
        SNSSCommand(id: 6, contents: navigation.contents(in: []))
    }
    /// SetSelectedNavigationIndex (7).
    public static func setSelectedNavigationIndex(tab: Int32, index: Int32) -> SNSSCommand { fixed(7, [tab, index]) }
    /// SetSelectedTabInIndex (8): the window's selected tab, by visual index.
    public static func setSelectedTabInIndex(window: Int32, index: Int32) -> SNSSCommand { fixed(8, [window, index]) }
    /// SetWindowType (9): 0 is a normal window.
    public static func setWindowType(window: Int32, type: Int32) -> SNSSCommand { fixed(9, [window, type]) }
    /// SetPinnedState (12).
    public static func setPinnedState(tab: Int32, pinned: Bool) -> SNSSCommand { fixed(12, [tab, pinned ? 1 : 0]) }
    /// SessionStorageAssociated (19): the tab's session storage namespace id.
    public static func sessionStorageAssociated(tab: Int32, namespace: String) -> SNSSCommand {
        var pickle = PickleWriter()
        pickle.int32(tab)
        pickle.string(namespace)
        return SNSSCommand(id: 19, contents: pickle.bytes)
    }
    /// TabClosed (16), at `time` (microseconds since 1601).
    public static func tabClosed(tab: Int32, time: Int64) -> SNSSCommand { timed(16, tab, time) }
    /// WindowClosed (17), at `time`.
    public static func windowClosed(window: Int32, time: Int64) -> SNSSCommand { timed(17, window, time) }
    /// SetActiveWindow (20).
    public static func setActiveWindow(window: Int32) -> SNSSCommand { fixed(20, [window]) }
    /// LastActiveTime (21), at `time`.
    public static func lastActiveTime(tab: Int32, time: Int64) -> SNSSCommand { timed(21, tab, time) }
}

extension SNSSNavigation {
    /// A navigation of tab `tab` at history index `index`, as a new page commits it: a link
    /// transition, no referrer, status 200.
    public init(tab: Int32, index: Int32, url: String, title: String, timestamp: Int64) {
        self.init(
            tab: tab, index: index, url: url, title: title, transition: 0, referrer: "", originalRequestURL: url, timestamp: timestamp,
            httpStatus: 200, record: nil)
    }
}

extension SNSSReplay {
    /// Windows and an active window to write as a full state (`SNSSWriter.fullState`): no group,
    /// nothing dropped, no stop.
    public init(windows: [Window], activeWindow: Int32?) {
        self.init(windows: windows, tabsWithoutWindow: [], windowsDropped: [], groups: [:], activeWindow: activeWindow, stops: [])
    }
}

extension SNSSReplay.Window {
    /// A window of `type` whose selected tab is at visual index `selectedTabIndex`.
    public init(id: Int32, type: Int32, selectedTabIndex: Int32, tabs: [SNSSReplay.Tab]) {
        self.init(id: id, type: type, selectedTabIndex: selectedTabIndex, showState: 0, userTitle: "", tabs: tabs)
    }
}

extension SNSSReplay.Tab {
    /// A tab of `window` at visual index `visualIndex` with its history and selected index.
    public init(id: Int32, window: Int32, visualIndex: Int32, selectedIndex: Int32, navigations: [SNSSNavigation], pinned: Bool) {
        self.init(
            id: id, window: window, visualIndex: visualIndex, selectedIndex: selectedIndex, navigations: navigations, pinned: pinned,
            group: nil, lastActive: 0, salvaged: false)
    }
}
