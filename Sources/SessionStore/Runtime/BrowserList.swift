import SessionModel

/// Hears windows being added to or removed from a `BrowserList`.
public protocol BrowserListObserver: AnyObject {
    /// A window was added.
    func browserList(_ list: BrowserList, didAdd browser: Browser)
    /// A window was removed (its scene disconnected); its session stays on disk.
    func browserList(_ list: BrowserList, didRemove browser: Browser)
}

/// The windows of one side (regular or incognito) of a profile.
public final class BrowserList {
    /// The windows, in the order they were added.
    public private(set) var browsers: [Browser] = []
    private var observers: [WeakObserver<any BrowserListObserver>] = []

    init() {}

    /// The window with a session id, if it is in the list.
    public func browser(for sessionID: SessionID) -> Browser? { browsers.first { $0.sessionID == sessionID } }

    /// Adds a window (nothing happens if it is already there).
    public func add(_ browser: Browser) {
        guard !browsers.contains(where: { $0 === browser }) else { return }
        browsers.append(browser)
        for observer in observers { observer.value?.browserList(self, didAdd: browser) }
    }

    /// Removes a window; false when it was not in the list.
    @discardableResult
    public func remove(_ browser: Browser) -> Bool {
        guard let index = browsers.firstIndex(where: { $0 === browser }) else { return false }
        browsers.remove(at: index)
        for observer in observers { observer.value?.browserList(self, didRemove: browser) }
        return true
    }

    /// Starts delivering changes to `observer` (held weakly).
    public func addObserver(_ observer: any BrowserListObserver) {
        guard !observers.contains(where: { $0.holds(observer) }) else { return }
        observers.append(WeakObserver(observer))
    }

    /// Total number of tabs in all windows.
    public var tabCount: Int { browsers.reduce(0) { $0 + $1.tabs.count } }
}
