import SessionForensics
import SessionModel

/// Sessions and tabs made by code for the Differ's tests.
enum DiffTestData {
    /// A tab whose title and url are derived from its id, with `items` navigation items in its metadata.
    static func tab(_ id: TabID, items: Int32 = 1, created: Int64 = 0, pinned: Bool = false) -> Tab {
        Tab(
            id: id, title: "Tab \(id)", url: "https://example.com/\(id)",
            creationTime: Timestamp(microseconds: 13_400_000_000_000_000 + created + Int64(id)),
            lastActiveTime: Timestamp(microseconds: 13_400_000_000_100_000 + Int64(id)),
            navigationItemCount: items, pinned: pinned)
    }

    /// A regular session with tabs of these ids, the first active.
    static func session(_ ids: [TabID], id: SessionID = Session.syntheticIdentifier, incognito: Bool = false) -> Session {
        Session(id: id, incognito: incognito, activeIndex: ids.isEmpty ? -1 : 0, tabs: ids.map { tab($0) })
    }

    /// A navigation item for `path` on example.com.
    static func item(_ path: String, title: String = "", time: Int64 = 0) -> NavigationItem {
        NavigationItem(
            url: "https://example.com/\(path)", title: title.isEmpty ? path : title,
            timestamp: Timestamp(microseconds: 13_400_000_000_000_000 + time), userAgent: .mobile)
    }

    /// A history of items for these paths, the last one committed.
    static func history(_ paths: [String]) -> TabHistory {
        TabHistory(lastCommittedIndex: Int32(paths.count) - 1, items: paths.enumerated().map { item($0.element, time: Int64($0.offset)) })
    }

    /// The ids of moved tabs, in the order reported.
    static func movedIDs(_ diff: SessionDiff) -> [TabID] { diff.tabs.moved.map(\.tab.id) }
}
