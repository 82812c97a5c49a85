import SessionModel

/// The ordered tabs of one window (Chrome's WebStateList): an active tab, a prefix of pinned tabs,
/// contiguous tab groups and opener relations, with observers for every change.
///
/// Every mutation returns what it did (nil or false when an index is out of range) rather than
/// trapping, so a scripted workload can drive it safely. Not thread-safe: use from one thread.
public final class TabList {
    /// The tabs, in order.
    public internal(set) var tabs: [BrowserTab] = []
    /// Index of the active tab, or -1.
    public internal(set) var activeIndex: Int = -1
    /// The first `pinnedCount` tabs are pinned.
    public internal(set) var pinnedCount: Int = 0
    /// Title, colour and state of each group, by id (membership is on the tabs).
    var groupInfo: [TabGroupID: TabGroup] = [:]
    /// The window this list belongs to.
    public internal(set) weak var browser: Browser?
    private var observers: [WeakObserver<any TabListObserver>] = []

    init() {}

    /// Number of tabs.
    public var count: Int { tabs.count }
    /// The active tab, if any.
    public var activeTab: BrowserTab? { tabs.indices.contains(activeIndex) ? tabs[activeIndex] : nil }
    /// The index of a tab in this list.
    public func index(of tab: BrowserTab) -> Int? { tabs.firstIndex { $0 === tab } }

    /// Starts delivering changes to `observer` (held weakly).
    public func addObserver(_ observer: any TabListObserver) {
        guard !observers.contains(where: { $0.holds(observer) }) else { return }
        observers.append(WeakObserver(observer))
    }

    /// Stops delivering changes to `observer`.
    public func removeObserver(_ observer: any TabListObserver) {
        observers.removeAll { $0.holds(observer) || $0.value == nil }
    }

    func notify(_ event: (any TabListObserver) -> Void) {
        for observer in observers { if let value = observer.value { event(value) } }
    }

    // MARK: Inserting and removing

    /// Inserts a tab (by default at the end of its region: pinned tabs first); a tab that belongs to
    /// another list is moved from there. Returns the index it landed at.
    @discardableResult
    public func insert(
        _ tab: BrowserTab, at index: Int? = nil, activate: Bool = false,
        opener: BrowserTab? = nil, pinned: Bool = false
    ) -> Int {
        if let other = tab.owner, let from = other.index(of: tab) {
            if other === self { return from }
            other.detach(at: from)
        }
        let region = pinned ? 0...pinnedCount : pinnedCount...tabs.count
        let position = min(max(index ?? region.upperBound, region.lowerBound), region.upperBound)
        tabs.insert(tab, at: position)
        tab.owner = self
        if pinned {
            pinnedCount += 1
            tab.groupID = nil
        } else {
            tab.groupID = joiningGroup(at: position)
        }
        if let opener, opener.owner === self {
            tab.opener = opener
            tab.openerNavigationIndex = opener.historyIfRealized?.lastCommittedIndex ?? 0
        }
        if activeIndex >= position { activeIndex += 1 }
        notify { $0.tabList(self, didInsert: tab, at: position) }
        if activate || activeIndex < 0 { activateTab(at: position) }
        return position
    }

    /// Closes the tab at `index`; returns it, or nil when the index is out of range.
    @discardableResult
    public func close(at index: Int) -> BrowserTab? { remove(at: index, closing: true) }

    /// Takes the tab at `index` out of the list without closing it (to insert it in another list).
    @discardableResult
    public func detach(at index: Int) -> BrowserTab? { remove(at: index, closing: false) }

    /// Closes every tab, last first.
    public func closeAll() {
        while !tabs.isEmpty { close(at: tabs.count - 1) }
    }

    private func remove(at index: Int, closing: Bool) -> BrowserTab? {
        guard tabs.indices.contains(index) else { return nil }
        let tab = tabs.remove(at: index)
        let wasActive = index == activeIndex
        if index < pinnedCount { pinnedCount -= 1 }
        tab.owner = nil
        let child = wasActive ? tabs.indices.first { $0 >= index && tabs[$0].opener === tab } : nil
        for other in tabs where other.opener === tab { other.opener = nil }
        normalizeGroups()
        if activeIndex > index { activeIndex -= 1 }
        if wasActive { activeIndex = -1 }
        notify { $0.tabList(self, didRemove: tab, at: index, closing: closing) }
        if wasActive && !tabs.isEmpty {
            activateTab(at: child ?? min(index, tabs.count - 1), previous: tab)
        } else if wasActive {
            notify { $0.tabList(self, didActivate: nil, previous: tab) }
        }
        return tab
    }

    /// Replaces the tab at `index` with `tab` (a prerendered page swapped in); the old tab is closed
    /// and returned. The new tab takes the old one's place, pinning, group and activation.
    @discardableResult
    public func replace(at index: Int, with tab: BrowserTab) -> BrowserTab? {
        guard tabs.indices.contains(index), tab.owner == nil else { return nil }
        let old = tabs[index]
        tabs[index] = tab
        tab.owner = self
        tab.groupID = old.groupID
        tab.opener = old.opener
        tab.openerNavigationIndex = old.openerNavigationIndex
        old.owner = nil
        for other in tabs where other.opener === old { other.opener = tab }
        notify { $0.tabList(self, didReplace: old, with: tab, at: index) }
        return old
    }

    // MARK: Moving and activating

    /// Moves a tab inside its region (pinned or not); false when an index is out of range.
    @discardableResult
    public func move(from: Int, to: Int) -> Bool {
        guard tabs.indices.contains(from), tabs.indices.contains(to) else { return false }
        let region = from < pinnedCount ? 0...(pinnedCount - 1) : pinnedCount...(tabs.count - 1)
        let target = min(max(to, region.lowerBound), region.upperBound)
        guard target != from else { return true }
        let active = activeTab
        let tab = tabs.remove(at: from)
        tabs.insert(tab, at: target)
        if from >= pinnedCount { tab.groupID = groupAfterMove(of: tab, at: target) }
        normalizeGroups()
        activeIndex = active.flatMap { index(of: $0) } ?? -1
        notify { $0.tabList(self, didMove: tab, from: from, to: target) }
        return true
    }

    /// Makes the tab at `index` active (and records the time); false when out of range.
    @discardableResult
    public func activate(at index: Int) -> Bool {
        guard tabs.indices.contains(index) else { return false }
        guard index != activeIndex else { return true }
        activateTab(at: index)
        return true
    }

    private func activateTab(at index: Int, previous: BrowserTab? = nil) {
        let before = previous ?? activeTab
        activeIndex = index
        let tab = tabs[index]
        if let now = browser?.profile?.clock.now { tab.lastActiveTime = now }
        notify { $0.tabList(self, didActivate: tab, previous: before) }
    }

    func tabDidRealize(_ tab: BrowserTab) { notify { $0.tabList(self, didRealize: tab) } }
    func tabDidFinishNavigation(_ tab: BrowserTab) { notify { $0.tabList(self, didFinishNavigationIn: tab) } }

    /// Replaces the whole content with restored tabs (no notifications: nothing changed on disk).
    func restore(tabs restored: [BrowserTab], activeIndex: Int, pinnedCount: Int, groups: [TabGroupID: TabGroup]) {
        tabs = restored
        for tab in restored { tab.owner = self }
        self.activeIndex = restored.indices.contains(activeIndex) ? activeIndex : -1
        self.pinnedCount = min(max(pinnedCount, 0), restored.count)
        groupInfo = groups
    }
}
