/// The identifier of a window's session: a scene's persistent identifier or `{SyntheticIdentifier}`.
public typealias SessionID = String

/// Which on-disk format a session was read from, by the name JSON documents give it.
///
/// Chrome for iOS's two formats, the model's own, are named here; every other browser family
/// names its formats beside its readers (`extension SessionFormat` in its folder of
/// SessionFormats), and `BrowserFamilies.formats` lists every format a family reads.
public struct SessionFormat: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    /// `SessionStorage/<id>/session_metadata.pb` with one `data.pb` per tab.
    public static let optimized = SessionFormat(rawValue: "optimized")
    /// `Sessions/<id>/session.plist` (NSKeyedArchiver).
    public static let legacy = SessionFormat(rawValue: "legacy")

    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
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
