import Foundation
import SessionModel

extension LegacyWindow {
    /// The window as a model session, values as stored (no repairs): NSNotFound becomes -1, the
    /// pinned count is the number of tabs marked pinned (the first that many tabs are pinned, as
    /// after Chrome's migration), and each tab's list entry (title, url, item count) is derived
    /// from its entries as Chrome's migration derives it.
    public func session(id: SessionID, incognito: Bool) -> Session {
        let pinnedCount = pinnedFlagCount
        let tabs = self.tabs.enumerated().map { index, tab in
            tab.modelTab(pinned: index < pinnedCount)
        }
        return Session(
            id: id, incognito: incognito, format: .legacy,
            activeIndex: selectsNothing ? -1 : Int32(clamping: selectedIndex),
            pinnedCount: Int32(pinnedCount), tabs: tabs, groups: groups
        )
    }

    /// The window Chrome's migration to the legacy format writes for a session: `selectedIndex` is
    /// none unless the active index points at a tab, and tabs without a stable identifier get a new
    /// random UUID. Tabs without a history are written with no entries.
    public init(_ session: Session, newStableIdentifier: () -> String = { UUID().uuidString }) {
        let count = session.tabs.count
        let pinnedCount = Int(max(0, min(Int32(clamping: count), session.pinnedCount)))
        let selected = (0..<count).contains(Int(session.activeIndex)) ? Int64(session.activeIndex) : LegacyWindow.notFound
        let tabs = session.tabs.enumerated().map { index, tab in
            LegacyTab(
                uniqueIdentifier: Int64(tab.id), stableIdentifier: tab.stableIdentifier ?? newStableIdentifier(),
                openedByDOM: tab.history?.hasOpener ?? false,
                lastCommittedItemIndex: Int64(tab.history?.lastCommittedIndex ?? -1),
                items: tab.history?.items ?? [],
                userAgentKey: LegacyUserAgent.word(for: tab.history?.userAgent ?? .automatic),
                creationTime: tab.creationTime, lastActiveTime: tab.lastActiveTime,
                certificates: tab.history?.certificates ?? [], pinned: index < pinnedCount, opener: tab.opener
            )
        }
        self.init(selectedIndex: selected, tabs: tabs, groups: session.groups)
    }
}

extension LegacyTab {
    /// The model tab of this legacy tab, its metadata taken from the last committed entry
    /// (clamped into the list as Chrome clamps it).
    func modelTab(pinned: Bool) -> Tab {
        let shown = min(lastCommittedItemIndex, Int64(items.count) - 1)
        let item = shown >= 0 ? items[Int(shown)] : nil
        let history = TabHistory(
            hasOpener: openedByDOM, userAgent: userAgent, lastCommittedIndex: Int32(clamping: lastCommittedItemIndex),
            items: items, certificates: certificates
        )
        return Tab(
            id: uniqueIdentifier.flatMap { Int32(exactly: $0) } ?? 0, title: item?.title ?? "", url: item?.displayURL ?? "",
            creationTime: creationTime, lastActiveTime: lastActiveTime, navigationItemCount: Int32(clamping: items.count),
            opener: opener, pinned: pinned, history: history, stableIdentifier: stableIdentifier
        )
    }
}
