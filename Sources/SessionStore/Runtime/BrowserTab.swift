import SessionFormats
import SessionModel

/// Reads a tab's data.pb: the history (salvaged when damaged) and what was wrong, if anything.
typealias TabDataSource = @Sendable () throws(FormatError) -> (history: TabHistory, problem: FormatError?)

/// A tab of the running browser (Chrome's WebState): its metadata always, its history once realized.
///
/// Restored tabs start *unrealized*: only the metadata of session_metadata.pb is in memory. The
/// first call that needs the history (`realize()`, `navigate(to:title:)`, `history`) reads data.pb,
/// and the owning `TabList` tells its observers with `tabList(_:didRealize:)`. A tab belongs to at
/// most one `TabList` at a time. Not thread-safe: use a tab from one thread (the main thread in an app).
public final class BrowserTab {
    /// The tab's id (Chrome's WebStateID), unique in the profile.
    public let id: TabID
    /// The title of the last committed page.
    public private(set) var title: String
    /// The URL shown for the last committed page.
    public private(set) var url: String
    /// When the tab was created.
    public let creationTime: Timestamp
    /// When the tab was last made active.
    public internal(set) var lastActiveTime: Timestamp
    /// Number of items in the back/forward list.
    public private(set) var navigationItemCount: Int32
    /// The tab that opened this one, if it is still known.
    public internal(set) weak var opener: BrowserTab?
    /// The opener's navigation index when it opened this tab.
    public internal(set) var openerNavigationIndex: Int32
    /// The group this tab belongs to, if any (groups are contiguous ranges of a `TabList`).
    public internal(set) var groupID: TabGroupID?
    /// Opaque web view interaction state (state.pb), as WKWebView's `interactionState` gives it.
    /// Saved with the tab's next save when set; nil makes the next save remove a stale state.pb.
    public var interactionState: [UInt8]?
    /// What went wrong when data.pb was read at realization, if anything (the tab then holds what
    /// could be salvaged, or a one-item history rebuilt from its metadata).
    public private(set) var realizationProblem: FormatError?

    /// The list this tab is in.
    public internal(set) weak var owner: TabList?

    private var loadedHistory: TabHistory?
    private var dataSource: TabDataSource?
    let unknownFields: [UInt8]
    let metadataUnknownFields: [UInt8]

    /// Creates a realized tab with a history (a new tab, or one built from a document).
    public init(id: TabID, history: TabHistory, creationTime: Timestamp, lastActiveTime: Timestamp? = nil) {
        self.id = id
        let summary = ChromeSaveSemantics.itemMetadata(for: history)
        self.title = summary.title
        self.url = summary.url
        self.navigationItemCount = summary.count
        self.creationTime = creationTime
        self.lastActiveTime = lastActiveTime ?? creationTime
        self.openerNavigationIndex = 0
        self.loadedHistory = history
        self.unknownFields = []
        self.metadataUnknownFields = []
    }

    /// Creates an unrealized tab from stored metadata; `dataSource` reads its data.pb on realization.
    init(restoring tab: Tab, dataSource: @escaping TabDataSource) {
        self.id = tab.id
        self.title = tab.title
        self.url = tab.url
        self.creationTime = tab.creationTime
        self.lastActiveTime = tab.lastActiveTime
        self.navigationItemCount = tab.navigationItemCount
        self.openerNavigationIndex = tab.opener?.navigationIndex ?? 0
        self.dataSource = dataSource
        self.unknownFields = tab.unknownFields
        self.metadataUnknownFields = tab.metadataUnknownFields
    }

    /// True once the history is in memory.
    public var isRealized: Bool { loadedHistory != nil }

    /// The history, realizing the tab first when needed.
    public var history: TabHistory { realize() }

    /// The history if the tab is realized, without reading anything.
    public var historyIfRealized: TabHistory? { loadedHistory }

    /// Reads data.pb if the tab is not realized yet, and returns the history.
    ///
    /// A missing or damaged data.pb never loses the tab: what can be salvaged is kept, or else a
    /// one-item history is rebuilt from the metadata (title and URL); `realizationProblem` says why.
    @discardableResult
    public func realize() -> TabHistory {
        if let loadedHistory { return loadedHistory }
        var history: TabHistory
        do throws(FormatError) {
            guard let dataSource else { throw FormatError.unreadable(path: Tab.directoryName(for: id), reason: "no data.pb") }
            let read = try dataSource()
            history = read.history
            realizationProblem = read.problem
        } catch {
            realizationProblem = error
            history = TabHistory()
        }
        if history.items.isEmpty {
            history = TabHistory(lastCommittedIndex: 0, items: [NavigationItem(url: url, title: title, timestamp: lastActiveTime)])
        } else if history.lastCommittedItem == nil {
            history.lastCommittedIndex = Int32(history.items.count - 1)
        }
        loadedHistory = history
        dataSource = nil
        refreshMetadata()
        owner?.tabDidRealize(self)
        return history
    }

    /// Commits a navigation to a new page: forward items are pruned, the page becomes the last
    /// committed item, and observers hear `tabList(_:didFinishNavigationIn:)`.
    ///
    /// Internal `sessionrestore`/`errorpage` URLs are stored as the real page they wrap.
    public func navigate(to url: String, title: String = "", timestamp: Timestamp? = nil, userAgent: UserAgent = .mobile) {
        var history = realize()
        let keep = Int(history.lastCommittedIndex) + 1
        if keep < history.items.count { history.items.removeSubrange(keep...) }
        let time = timestamp ?? owner?.browser?.profile?.clock.now ?? lastActiveTime
        history.items.append(NavigationItem(url: HistoryRestore.unwrapPersisted(url), title: title, timestamp: time, userAgent: userAgent))
        history.lastCommittedIndex = Int32(history.items.count - 1)
        setHistory(history)
    }

    /// Moves to another item of the back/forward list (back or forward); false when out of range.
    @discardableResult
    public func goToItem(at index: Int) -> Bool {
        var history = realize()
        guard history.items.indices.contains(index) else { return false }
        history.lastCommittedIndex = Int32(index)
        setHistory(history)
        return true
    }

    /// Replaces the whole history (for example after a page updated its title) and notifies observers.
    public func setHistory(_ history: TabHistory) {
        loadedHistory = history
        dataSource = nil
        refreshMetadata()
        owner?.tabDidFinishNavigation(self)
    }

    private func refreshMetadata() {
        guard let loadedHistory else { return }
        let summary = ChromeSaveSemantics.itemMetadata(for: loadedHistory)
        title = summary.title
        url = summary.url
        navigationItemCount = summary.count
    }
}
