import SessionModel

/// The repair of one session file of a family whose sessions are files (a Firefox for iOS window,
/// a Firefox desktop session, a Chromium desktop Session_ file): the files it replaces or removes
/// set aside first, into one entry (each at its path in the profile, with a manifest; a Firefox for
/// iOS window's under `Backups/<window UUID>/<stamp>/`), then the file written anew atomically,
/// then the files it only removes unlinked.
public struct FileRewrite: Sendable {
    /// The session it rewrites: a Firefox for iOS window's UUID, or the session file's own id.
    public var window: SessionID
    /// The session file (`window-data/window-<UUID>`, `sessionstore.jsonlz4`, `Sessions/Session_<time>`), relative to the profile.
    public var file: String
    /// Every file set aside, relative to the profile: the window file and its backup when the
    /// window file is written anew, and each file `removes` names.
    public var setAside: [String]
    /// Files removed from the live profile once set aside (tabs' session states WebKit cannot read).
    public var removes: [String]
    /// The steps, each naming the validate rule it fixes.
    public var actions: [RepairAction]
    /// Number of tabs of the window written (of the window as it stays, when it is not written).
    public var tabs: Int
    /// The window file's new bytes; nil when only files are set aside.
    package var bytes: [UInt8]?
    /// Tabs' session states written before the window file, each only where no file is (paths
    /// relative to the profile): the histories a legacy archive held.
    public var stateFiles: [(path: String, bytes: [UInt8])] = []
    /// What the rewrite writes, for people: a Firefox for iOS "window", or a Firefox desktop "session".
    public var kind = "window"
    /// The tabs the browser restores today from the files the rewrite replaces: a rewrite that
    /// writes fewer is refused (`FileRewriteExecutor.preflight`), whatever validate said of them.
    public var restoredBefore = 0
    /// Why the rewrite cannot be carried out as planned (a name the browser would not pick); nil
    /// when it can. Refused before anything is written, the dry run included.
    public var refusal: String?

    /// Whether the window file is written anew.
    public var writesWindow: Bool { bytes != nil }

    /// A rewrite of `window`'s `file` (`bytes`: its new content; nil to set files aside only).
    package init(
        window: SessionID, file: String, setAside: [String], removes: [String], actions: [RepairAction], tabs: Int, bytes: [UInt8]?,
        stateFiles: [(path: String, bytes: [UInt8])] = [], kind: String = "window", restoredBefore: Int = 0, refusal: String? = nil
    ) {
        self.window = window
        self.file = file
        self.setAside = setAside
        self.removes = removes
        self.actions = actions
        self.tabs = tabs
        self.bytes = bytes
        self.stateFiles = stateFiles
        self.kind = kind
        self.restoredBefore = restoredBefore
        self.refusal = refusal
    }
}
