import SessionFormats
import SessionModel

/// One window of the browser (Chrome's Browser): a session id and the window's tab list.
///
/// Its session is stored in `SessionStorage/<sessionID>/` of its profile state (under `OTR/` when
/// incognito).
public final class Browser {
    /// The window's session id (a scene's persistent identifier, or `{SyntheticIdentifier}`).
    public let sessionID: SessionID
    /// True for an incognito window.
    public let incognito: Bool
    /// The window's tabs.
    public let tabs: TabList
    /// The profile the window belongs to.
    public internal(set) weak var profile: Profile?

    init(sessionID: SessionID, incognito: Bool) {
        self.sessionID = sessionID
        self.incognito = incognito
        self.tabs = TabList()
        self.tabs.browser = self
    }

    /// The session directory, relative to the profile.
    public var sessionDirectory: String { ProfileLayout.sessionDirectory(sessionID, incognito: incognito) }

    /// Opens a new, realized tab at a URL and returns it (inserted at the end unless `index` is
    /// given; `opener` is the tab that opened it, if any).
    @discardableResult
    public func openTab(
        url: String, title: String = "", at index: Int? = nil, activate: Bool = true,
        opener: BrowserTab? = nil, pinned: Bool = false
    ) -> BrowserTab {
        let tab = makeTab(url: url, title: title, opener: opener)
        tabs.insert(tab, at: index, activate: activate, opener: opener, pinned: pinned)
        return tab
    }

    /// Makes a new tab that is in no list yet (for `TabList.replace(at:with:)`, a prerendered page).
    public func makeTab(url: String, title: String = "", opener: BrowserTab? = nil) -> BrowserTab {
        let now = profile?.clock.now ?? .null
        let id = profile?.allocateTabID() ?? Int32(tabs.count + 1)
        let item = NavigationItem(url: HistoryRestore.unwrapPersisted(url), title: title, timestamp: now, userAgent: .mobile)
        let history = TabHistory(hasOpener: opener != nil, userAgent: .automatic, lastCommittedIndex: 0, items: [item])
        return BrowserTab(id: id, history: history, creationTime: now)
    }

    /// The window's tabs as the Session value Chrome would write for it (histories of realized tabs
    /// included, unrealized ones nil).
    public func currentSession() -> Session {
        var pinnedSeen = 0
        let stored: [Tab] = tabs.tabs.map { tab in
            let history = tab.historyIfRealized.map(ChromeSaveSemantics.storedHistory)
            let summary = history.map(ChromeSaveSemantics.itemMetadata)
            var opener: Opener?
            if let source = tab.opener, let index = tabs.index(of: source) {
                opener = Opener(index: Int32(index), navigationIndex: tab.openerNavigationIndex)
            }
            defer { pinnedSeen += 1 }
            return Tab(
                id: tab.id, title: summary?.title ?? tab.title, url: summary?.url ?? tab.url,
                creationTime: tab.creationTime, lastActiveTime: tab.lastActiveTime,
                navigationItemCount: summary?.count ?? tab.navigationItemCount, opener: opener,
                pinned: pinnedSeen < tabs.pinnedCount, history: history,
                unknownFields: tab.unknownFields, metadataUnknownFields: tab.metadataUnknownFields)
        }
        return Session(
            id: sessionID, incognito: incognito, format: .optimized, activeIndex: Int32(tabs.activeIndex),
            pinnedCount: Int32(tabs.pinnedCount), tabs: stored, groups: tabs.groups,
            unknownFields: unknownFields)
    }

    /// Unknown fields of the restored `WebStateListStorage`, written back unchanged.
    var unknownFields: [UInt8] = []
}
