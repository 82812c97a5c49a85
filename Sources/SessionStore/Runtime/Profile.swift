import FileSystemKit
import SessionFormats
import SessionModel

/// One side of a profile, regular or incognito, with its own state directory and windows.
public final class ProfileState {
    /// True for the incognito (off-the-record) side.
    public let incognito: Bool
    /// The side's state directory: the profile itself, or `<profile>/OTR`.
    public let directory: String
    /// The side's windows.
    public let browsers = BrowserList()

    init(profile: String, incognito: Bool) {
        self.incognito = incognito
        self.directory = joinPath(profile, ProfileLayout.stateRoot(incognito: incognito))
    }
}

/// A browser profile: the regular and incognito sides, the clock, and tab id allocation.
///
/// Tab ids are unique in the profile and allocated above every id restored or seen on disk.
public final class Profile {
    /// The profile directory (holding `SessionStorage/`, `OTR/`, `Backups/`).
    public let path: String
    /// The regular side.
    public let regular: ProfileState
    /// The incognito side (stored under `OTR/`).
    public let incognito: ProfileState
    /// The clock that stamps tab times and runs the delayed save.
    public let clock: any SessionClock
    private var nextTabID: TabID = 1
    private var groupIDGenerator: () -> TabGroupID

    init(path: String, clock: any SessionClock, groupIDGenerator: @escaping () -> TabGroupID) {
        self.path = path
        self.regular = ProfileState(profile: path, incognito: false)
        self.incognito = ProfileState(profile: path, incognito: true)
        self.clock = clock
        self.groupIDGenerator = groupIDGenerator
    }

    /// The regular or the incognito side.
    public func state(incognito: Bool) -> ProfileState { incognito ? self.incognito : regular }

    /// Every window of both sides, regular first.
    public var allBrowsers: [Browser] { regular.browsers.browsers + incognito.browsers.browsers }

    /// The window with a session id on one side, if it exists.
    public func browser(for sessionID: SessionID, incognito: Bool) -> Browser? {
        state(incognito: incognito).browsers.browser(for: sessionID)
    }

    /// The window with a session id, created empty (and added to its side) when it does not exist.
    @discardableResult
    public func openBrowser(_ sessionID: SessionID = Session.syntheticIdentifier, incognito: Bool = false) -> Browser {
        if let existing = browser(for: sessionID, incognito: incognito) { return existing }
        let browser = Browser(sessionID: sessionID, incognito: incognito)
        browser.profile = self
        state(incognito: incognito).browsers.add(browser)
        return browser
    }

    /// Closes every incognito tab of every incognito window.
    public func closeAllIncognitoTabs() {
        for browser in incognito.browsers.browsers { browser.tabs.closeAll() }
    }

    /// A new tab id, above every id used so far.
    func allocateTabID() -> TabID {
        defer { nextTabID = nextTabID == TabID.max ? 1 : nextTabID + 1 }
        return nextTabID
    }

    /// Makes sure new ids are allocated above `id`.
    func reserveTabID(_ id: TabID) {
        if id >= nextTabID { nextTabID = id == TabID.max ? TabID.max : id + 1 }
    }

    /// A fresh, non-zero group id.
    func makeGroupID() -> TabGroupID {
        var id = groupIDGenerator()
        while id.isZero { id = groupIDGenerator() }
        return id
    }
}
