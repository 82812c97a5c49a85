/// Hears every change of a `TabList`; every method has an empty default implementation.
///
/// Notifications are delivered synchronously, after the list has changed, on the thread that
/// changed it. The session service is one such observer: each of these marks the window dirty.
public protocol TabListObserver: AnyObject {
    /// A tab was inserted (opened, restored by the user, or moved in from another window).
    func tabList(_ list: TabList, didInsert tab: BrowserTab, at index: Int)
    /// A tab left the list: closed when `closing` is true, else detached to move to another list.
    func tabList(_ list: TabList, didRemove tab: BrowserTab, at index: Int, closing: Bool)
    /// A tab moved inside the list.
    func tabList(_ list: TabList, didMove tab: BrowserTab, from: Int, to: Int)
    /// A tab was replaced in place by another (a prerendered page swapped in); `old` is closed.
    func tabList(_ list: TabList, didReplace old: BrowserTab, with new: BrowserTab, at index: Int)
    /// The active tab changed (nil: no tab is active).
    func tabList(_ list: TabList, didActivate tab: BrowserTab?, previous: BrowserTab?)
    /// A tab committed a navigation (its history changed).
    func tabList(_ list: TabList, didFinishNavigationIn tab: BrowserTab)
    /// A tab read its data.pb and now has its history in memory (no change to save).
    func tabList(_ list: TabList, didRealize tab: BrowserTab)
    /// Pinned tabs or tab groups changed.
    func tabListDidChangePinningOrGroups(_ list: TabList)
}

extension TabListObserver {
    public func tabList(_ list: TabList, didInsert tab: BrowserTab, at index: Int) {}
    public func tabList(_ list: TabList, didRemove tab: BrowserTab, at index: Int, closing: Bool) {}
    public func tabList(_ list: TabList, didMove tab: BrowserTab, from: Int, to: Int) {}
    public func tabList(_ list: TabList, didReplace old: BrowserTab, with new: BrowserTab, at index: Int) {}
    public func tabList(_ list: TabList, didActivate tab: BrowserTab?, previous: BrowserTab?) {}
    public func tabList(_ list: TabList, didFinishNavigationIn tab: BrowserTab) {}
    public func tabList(_ list: TabList, didRealize tab: BrowserTab) {}
    public func tabListDidChangePinningOrGroups(_ list: TabList) {}
}

/// A weak reference to an observer, so that observing never keeps an object alive.
struct WeakObserver<Observer> {
    private weak var object: AnyObject?
    init(_ observer: Observer) { object = observer as AnyObject }
    var value: Observer? { object as? Observer }
    func holds(_ other: AnyObject) -> Bool { object === other }
}
