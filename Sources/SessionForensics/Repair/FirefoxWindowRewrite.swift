import SessionModel

/// The repair of one Firefox for iOS window: the files it replaces or removes set aside first, into
/// one entry `Backups/<window UUID>/<stamp>/` (each at its path in the profile, with a manifest),
/// then the window file written anew atomically, then the files it only removes unlinked.
public struct FirefoxWindowRewrite: Sendable {
    /// The window's UUID.
    public var window: SessionID
    /// The window file (`window-data/window-<UUID>`), relative to the profile.
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
    var bytes: [UInt8]?
    /// Tabs' session states written before the window file, each only where no file is (paths
    /// relative to the profile): the histories a legacy archive held.
    public var stateFiles: [(path: String, bytes: [UInt8])] = []
    /// What the rewrite writes, for people: a Firefox for iOS "window", or a Firefox desktop "session".
    public var kind = "window"

    /// Whether the window file is written anew.
    public var writesWindow: Bool { bytes != nil }
}
