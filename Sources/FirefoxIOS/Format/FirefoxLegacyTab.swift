import FileSystemKit
import SessionFormats
import SessionModel

/// One tab of Firefox for iOS's legacy tab archive (`SavedTab`), as far as it was stored: every
/// field any version wrote, absent ones nil (or false, empty, 0).
public struct FirefoxLegacyTab: Sendable, Equatable {
    /// A tab's `tabGroupData` (`TabGroupData`): the search that led to the tab and the timer state.
    public struct Group: Sendable, Equatable {
        /// `tabAssociatedSearchTerm`.
        public var searchTerm: String?
        /// `tabAssociatedSearchUrl`.
        public var searchURL: String?
        /// `tabAssociatedNextUrl`.
        public var nextURL: String?
        /// `tabHistoryCurrentState`: the name of a timer state (`openURLOnly`, `tabSelected`, ...).
        public var historyState: String?

        /// A group of the four strings.
        public init(searchTerm: String? = nil, searchURL: String? = nil, nextURL: String? = nil, historyState: String? = nil) {
            self.searchTerm = searchTerm
            self.searchURL = searchURL
            self.nextURL = nextURL
            self.historyState = historyState
        }
    }

    /// `isSelected`: the tab selected when the archive was written.
    public var isSelected: Bool
    /// `isPrivate`.
    public var isPrivate: Bool
    /// `hasHomeScreenshot`.
    public var hasHomeScreenshot: Bool
    /// `title`.
    public var title: String?
    /// `url` as an absolute string (its relative string resolved against its base, when it has one).
    public var url: String?
    /// `faviconURL`.
    public var faviconURL: String?
    /// `sessionData.urls`: the tab's history, oldest first, each URL as an absolute string.
    public var urls: [String]
    /// `sessionData.currentPage`: 0 for the last URL of `urls`, negative going back.
    public var currentPage: Int
    /// `sessionData.lastUsedTime`: milliseconds since 1970.
    public var lastUsedTime: UInt64?
    /// `createdAt`: milliseconds since 1970.
    public var createdAt: UInt64?
    /// `screenshotUUID` as an upper-case UUID string (nil when absent or not a UUID).
    public var screenshotUUID: String?
    /// The `UUID` string, as written.
    public var uuid: String?
    /// `tabGroupData`.
    public var group: Group?
    /// The byte offset of the tab's object in the archive.
    public var offset: Int

    /// A tab of the given fields.
    public init(
        isSelected: Bool = false, isPrivate: Bool = false, hasHomeScreenshot: Bool = false, title: String? = nil, url: String? = nil,
        faviconURL: String? = nil, urls: [String] = [], currentPage: Int = 0, lastUsedTime: UInt64? = nil, createdAt: UInt64? = nil,
        screenshotUUID: String? = nil, uuid: String? = nil, group: Group? = nil, offset: Int = 0
    ) {
        self.isSelected = isSelected
        self.isPrivate = isPrivate
        self.hasHomeScreenshot = hasHomeScreenshot
        self.title = title
        self.url = url
        self.faviconURL = faviconURL
        self.urls = urls
        self.currentPage = currentPage
        self.lastUsedTime = lastUsedTime
        self.createdAt = createdAt
        self.screenshotUUID = screenshotUUID
        self.uuid = uuid
        self.group = group
        self.offset = offset
    }

    /// The index in `urls` of the current page (`urls.count - 1 + currentPage`, kept within the
    /// list); nil without URLs.
    public var currentIndex: Int? {
        guard !urls.isEmpty else { return nil }
        let (index, overflow) = (urls.count - 1).addingReportingOverflow(currentPage)
        if overflow { return currentPage < 0 ? 0 : urls.count - 1 }
        return min(max(index, 0), urls.count - 1)
    }

    /// The session data as a tab history: an item for each URL, stamped `time` (the archive keeps
    /// one time for the whole tab), the current page the last committed item and the only one
    /// titled (with the tab's title; the archive keeps no other).
    public func history(time: Timestamp) -> TabHistory {
        let current = currentIndex
        let items = urls.enumerated().map { index, url in
            NavigationItem(url: url, title: index == current ? title ?? "" : "", timestamp: time, userAgent: .automatic)
        }
        return TabHistory(userAgent: .automatic, lastCommittedIndex: Int32(clamping: current ?? -1), items: items)
    }

    /// `lastUsedTime` as a model time (null when absent or out of range).
    public var lastUsedTimestamp: Timestamp { Self.timestamp(lastUsedTime) }

    /// `createdAt` as a model time (null when absent or out of range).
    public var createdTimestamp: Timestamp { Self.timestamp(createdAt) }

    /// Milliseconds since 1970 as a model time.
    static func timestamp(_ milliseconds: UInt64?) -> Timestamp {
        guard let milliseconds, milliseconds <= 9_000_000_000_000_000 / 1_000 else { return .null }
        return Timestamp(unixMicroseconds: Int64(milliseconds) * 1_000)
    }

    /// Milliseconds since 1970 as seconds since 2001, as Foundation's `Date` keeps them.
    static func secondsSince2001(_ milliseconds: UInt64) -> Double {
        Double(milliseconds) / 1_000 - FirefoxTime.referenceOffset
    }
}
