import SessionModel

/// Something a migration changes in what is stored, so that the result is what Chrome would load
/// and validates clean: said in the plan before anything is written.
public struct MigrationChange: Sendable, Hashable {
    /// Who makes the change.
    public enum Origin: String, Sendable, Hashable {
        /// Chrome makes the same change when it loads the source (or would on its own migration).
        case chrome
        /// Firefox for iOS's own migration makes the same change (`migrate --to window-data`).
        case firefox
        /// sessionctl makes it where Chrome would lose a tab or crash.
        case sessionctl
    }

    public var session: SessionID
    public var incognito: Bool
    /// The tab concerned, by its index in the source window, or nil for the window.
    public var tab: Int?
    public var origin: Origin
    public var message: String

    public init(session: SessionID, incognito: Bool, tab: Int?, origin: Origin, message: String) {
        self.session = session
        self.incognito = incognito
        self.tab = tab
        self.origin = origin
        self.message = message
    }
}
