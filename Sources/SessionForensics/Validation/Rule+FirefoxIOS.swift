/// The rules of Firefox for iOS's window data: what Firefox does on launch with each problem of
/// `window-data/`, its backup and its tabs' session states (docs/firefox-ios-format.md, loading).
/// `internal-url` is shared with Chrome for iOS: the same wrappers, which load in neither.
extension Rule {
    public static let windowFileUnparsable = Rule(
        "window-file-unparsable", .error, .tabLost,
        "The window file is damaged, cut short, or lacks a key Firefox requires (or has one of another type): Firefox reads nothing of it and loads the backup, losing what changed since the backup was copied.",
        repair: .none(firefoxRepairPending))
    public static let windowLost = Rule(
        "window-lost", .error, .sessionLost,
        "Neither the window file nor its backup decodes as Firefox decodes them (or the backup is missing): the window opens with one new tab.",
        repair: .none(firefoxRepairPending))
    public static let windowOnlyInBackup = Rule(
        "window-only-in-backup", .error, .sessionLost,
        "A window is in window-data-backup/ but not in window-data/: Firefox finds windows by listing window-data/ and never reads it.",
        repair: .none(firefoxRepairPending))
    public static let backupMissing = Rule(
        "backup-missing", .info, .none,
        "The window has no backup (Firefox copies one before each throttled save, none before a forced save): were the window file damaged, the window would be lost.",
        repair: .none("Firefox writes the backup at its next throttled save; a copy made now would only repeat the window file."))
    public static let backupUnparsable = Rule(
        "backup-unparsable", .warning, .none,
        "The backup does not decode as Firefox decodes it: Firefox ignores it until its next throttled save replaces it, and a damaged window file would lose the window meanwhile.",
        repair: .none(firefoxRepairPending))
    public static let backupBehind = Rule(
        "backup-behind", .info, .none,
        "The backup lacks tabs of the window file (it is the window file of one save before): what a fallback to it would lose.",
        repair: .none("the backup is Firefox's previous save by design; its next throttled save copies the window file over it."))
    public static let activeTabMissing = Rule(
        "active-tab-missing", .warning, .adjusted,
        "activeTabId names no tab of the window: Firefox selects the most recently used regular tab (a new tab when there is none).",
        repair: .none(firefoxRepairPending))
    public static let firefoxTabIDDuplicate = Rule(
        "tab-uuid-duplicate", .warning, .adjusted,
        "Two tabs have one UUID: Firefox restores both, each with the one session state file of that UUID, and closing one deletes the other's state.",
        repair: .none(firefoxRepairPending))
    public static let tabURLInvalid = Rule(
        "tab-url-invalid", .warning, .adjusted,
        "A tab's siteUrl does not parse as a URL: Firefox keeps the tab with no page (it opens blank).",
        repair: .none(firefoxRepairPending))
    public static let tabStateUnparsable = Rule(
        "tab-state-unparsable", .warning, .adjusted,
        "A tab's tab-session-data file is not a WebKit session state WebKit reads: the tab loads its page with no back/forward history.",
        repair: .none(firefoxRepairPending))
    public static let windowsSeveral = Rule(
        "windows-several", .info, .none,
        "window-data/ holds several windows: on iPhone Firefox opens the first it lists and deletes the others' files (their backups stay); on iPad it keeps them all; which window opens first is decided outside these files.",
        repair: .none("which window Firefox opens first is decided outside these files; every window is listed."))
    public static let privateTabsSaved = Rule(
        "private-tabs-saved", .info, .none,
        "The window holds private tabs: Firefox saves and restores them only while its setting that closes private tabs is off (it is on by default).",
        repair: .none("the tabs are kept as Firefox wrote them."))

    /// What the repair of every rule above says while Firefox for iOS's rulebook writes no repair.
    static let firefoxRepairPending =
        "repair does not write Firefox for iOS windows yet (sessionctl repair refuses the profile); the finding counts the tabs that can be read from the files."

    /// The rules above, in order.
    static let firefoxIOSRules: [Rule] = [
        windowFileUnparsable, windowLost, windowOnlyInBackup, backupMissing, backupUnparsable, backupBehind, activeTabMissing,
        firefoxTabIDDuplicate, tabURLInvalid, tabStateUnparsable, windowsSeveral, privateTabsSaved
    ]
}
