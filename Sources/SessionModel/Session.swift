/// The identifier of a window's session: a scene's persistent identifier or `{SyntheticIdentifier}`.
public typealias SessionID = String

/// Which on-disk format a session was read from: Chrome for iOS's two, Firefox for iOS's two, Firefox desktop's or Chromium desktop's.
public enum SessionFormat: String, Sendable, Hashable, Codable {
    /// `SessionStorage/<id>/session_metadata.pb` with one `data.pb` per tab.
    case optimized
    /// `Sessions/<id>/session.plist` (NSKeyedArchiver).
    case legacy
    /// Firefox for iOS's `window-data/window-<UUID>` (JSON) with a WebKit session state per tab.
    case windowData = "window-data"
    /// Firefox for iOS's legacy `tabsState.archive` or `codableTabsState.archive` (NSKeyedArchiver).
    case tabsArchive = "tabs-archive"
    /// Firefox desktop's session files (`sessionstore.jsonlz4` and `sessionstore-backups/`): mozLz4-compressed JSON.
    case sessionstore
    /// Chromium desktop's session command logs (`Sessions/Session_<time>`, SNSS).
    case snss

    /// Whether the format is one of Chrome for iOS's.
    public var isChrome: Bool { self == .optimized || self == .legacy }
}

/// One window's session: its tabs in order, the active tab, pinned tabs and groups.
public struct Session: Sendable, Hashable, Codable {
    public var id: SessionID
    public var incognito: Bool
    public var format: SessionFormat
    /// Index of the active tab, or -1 for none.
    public var activeIndex: Int32
    /// The first `pinnedCount` tabs are pinned.
    public var pinnedCount: Int32
    public var tabs: [Tab]
    public var groups: [TabGroup]
    /// Unknown fields of `WebStateListStorage`, kept as raw bytes.
    public var unknownFields: [UInt8]
    /// Tabs the user closed in this window that the browser keeps to reopen, most recent first
    /// (Firefox desktop's `_closedTabs`; empty where the format keeps none).
    public var closedTabs: [Tab]
    /// Windows the user closed that the browser keeps to reopen, most recent first, each with its
    /// tabs (Firefox desktop's `_closedWindows`, on the first window of the file that holds them).
    public var closedWindows: [Session]

    public init(
        id: SessionID, incognito: Bool = false, format: SessionFormat = .optimized,
        activeIndex: Int32 = -1, pinnedCount: Int32 = 0, tabs: [Tab] = [], groups: [TabGroup] = [],
        unknownFields: [UInt8] = [], closedTabs: [Tab] = [], closedWindows: [Session] = []
    ) {
        self.id = id
        self.incognito = incognito
        self.format = format
        self.activeIndex = activeIndex
        self.pinnedCount = pinnedCount
        self.tabs = tabs
        self.groups = groups
        self.unknownFields = unknownFields
        self.closedTabs = closedTabs
        self.closedWindows = closedWindows
    }

    /// The session id of the single-window case.
    public static let syntheticIdentifier: SessionID = "{SyntheticIdentifier}"

    /// The active tab, when the index points into the list.
    public var activeTab: Tab? {
        tabs.indices.contains(Int(activeIndex)) ? tabs[Int(activeIndex)] : nil
    }
}

extension Array where Element == Session {
    /// Chrome's display order: regular sessions first, then incognito; each group by id.
    public func sortedForDisplay() -> [Session] {
        sorted { lhs, rhs in
            if lhs.incognito != rhs.incognito { return !lhs.incognito }
            return lhs.id.utf8.lexicographicallyPrecedes(rhs.id.utf8)
        }
    }
}
