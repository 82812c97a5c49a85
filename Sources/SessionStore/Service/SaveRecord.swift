import FileSystemKit
import SessionModel

/// Names a window's session on one side of a profile.
public struct SessionKey: Sendable, Hashable, CustomStringConvertible {
    /// The session id (the directory name under `SessionStorage/`).
    public var id: SessionID
    /// True for a session under `OTR/`.
    public var incognito: Bool
    public init(id: SessionID, incognito: Bool) {
        self.id = id
        self.incognito = incognito
    }
    public var description: String { incognito ? "OTR/\(id)" : id }
}

/// What started a save.
public enum SaveTrigger: String, Sendable, Hashable {
    /// The one-shot delayed save (2.5 s after the first change).
    case delayed
    /// The app went to the background.
    case background
    /// A scene (window) disconnected.
    case disconnect
    /// `SessionService.saveNow()`.
    case explicit
    /// `SessionService.shutDown()` (clean exit).
    case shutdown
    /// The last incognito tab closed: every incognito file was removed.
    case incognitoClosed
}

/// What a completed save made durable: the acknowledgement a crash test checks against.
///
/// Once a record is delivered, every file it names has been written, fsynced, renamed into place
/// and its directory fsynced: a crash from then on restores this state or a newer one.
public struct SaveRecord: Sendable {
    /// Increases by one with every save of the service (failed ones included).
    public var sequence: Int
    /// What started the save.
    public var trigger: SaveTrigger
    /// Each window written, as the Session value its session_metadata.pb now holds; a tab's
    /// `history` is what its data.pb holds when the tab is realized (written now or earlier), nil
    /// for an unrealized tab whose data.pb was left untouched.
    public var sessions: [Session]
    /// Windows whose session directory was removed (incognito windows left without tabs).
    public var removedSessions: [SessionKey]
    /// True when every incognito file of the profile was removed (`<profile>/OTR` is gone).
    public var incognitoPurged: Bool
    /// Tab directories deleted after the commit, per window (closed tabs).
    public var deletedTabs: [SessionKey: [TabID]]
}

/// A save that did not complete: nothing it meant to write is reported as durable, and the
/// changes are kept to be written again by the next save.
public struct SaveFailure: Error, Sendable {
    /// The sequence number the failed save used.
    public var sequence: Int
    /// What started the save.
    public var trigger: SaveTrigger
    /// The file operation that failed.
    public var error: FileSystemError
}
