import FileSystemKit
import SessionForensics
import SessionFormats
import SessionModel
import SessionStore

/// The rules of Firefox for iOS's window data: what Firefox does on launch with each problem of
/// `window-data/`, its backup and its tabs' session states (docs/firefox-ios-format.md, loading).
/// `internal-url` is shared with Chrome for iOS: the same wrappers, which load in neither.
extension Rule {
    public static let windowFileUnparsable = Rule(
        "window-file-unparsable", .error, .tabLost,
        "The window file is damaged, cut short, or lacks a key Firefox requires (or has one of another type): Firefox reads nothing of it and loads the backup, losing what changed since the backup was copied.",
        repair: .step("the window file is written anew with every tab of both files (the window file's first), both set aside first."))
    public static let windowLost = Rule(
        "window-lost", .error, .sessionLost,
        "Neither the window file nor its backup decodes as Firefox decodes them (or the backup is missing): the window opens with one new tab.",
        repair: .step(
            "the window file is written anew with every tab either file holds as far as it reads, both set aside first; with no tab readable, nothing is written."
        ))
    public static let windowOnlyInBackup = Rule(
        "window-only-in-backup", .error, .sessionLost,
        "A window is in window-data-backup/ but not in window-data/: Firefox finds windows by listing window-data/ and never reads it.",
        repair: .step("the window file is written from the backup's tabs, the backup set aside first."))
    public static let backupMissing = Rule(
        "backup-missing", .info, .none,
        "The window has no backup (Firefox copies one before each throttled save, none before a forced save): were the window file damaged, the window would be lost.",
        repair: .none("Firefox writes the backup at its next throttled save; a copy made now would only repeat the window file."))
    public static let backupUnparsable = Rule(
        "backup-unparsable", .info, .none,
        "The backup does not decode as Firefox decodes it: Firefox ignores it until its next throttled save copies the window file over it, and a damaged window file would lose the window meanwhile.",
        repair: .withRewrite("the backup is set aside with the window file; Firefox's next throttled save replaces it."))
    public static let backupBehind = Rule(
        "backup-behind", .info, .none,
        "The backup lacks tabs of the window file (it is the window file of one save before): what a fallback to it would lose.",
        repair: .none("the backup is Firefox's previous save by design; its next throttled save copies the window file over it."))
    public static let activeTabMissing = Rule(
        "active-tab-missing", .warning, .adjusted,
        "activeTabId names no tab of the window: Firefox selects the most recently used regular tab (a new tab when there is none).",
        repair: .step("activeTabId is set to the tab Firefox would select (the most recently used regular tab)."))
    public static let firefoxTabIDDuplicate = Rule(
        "tab-uuid-duplicate", .warning, .adjusted,
        "Two tabs have one UUID: Firefox restores both, each with the one session state file of that UUID, and closing one deletes the other's state.",
        repair: .step("the later tab gets a new UUID, without a session state (it loads its page)."))
    public static let tabURLInvalid = Rule(
        "tab-url-invalid", .warning, .adjusted,
        "A tab's siteUrl does not parse as a URL: Firefox keeps the tab with no page (it opens blank).",
        repair: .step("the tab's URL is taken from its session state's current entry, when it has one that parses."))
    public static let tabStateUnparsable = Rule(
        "tab-state-unparsable", .warning, .adjusted,
        "A tab's tab-session-data file is not a WebKit session state WebKit reads: the tab loads its page with no back/forward history.",
        repair: .step("the file is set aside and removed: the tab loads its page, as Firefox would load it."))
    public static let windowsSeveral = Rule(
        "windows-several", .info, .none,
        "window-data/ holds several windows: on iPhone Firefox opens the first it lists and deletes the others' files (their backups stay); on iPad it keeps them all; which window opens first is decided outside these files.",
        repair: .none("which window Firefox opens first is decided outside these files; every window is listed."))
    public static let privateTabsSaved = Rule(
        "private-tabs-saved", .info, .none,
        "The window holds private tabs: Firefox saves and restores them only while its setting that closes private tabs is off (it is on by default).",
        repair: .none("the tabs are kept as Firefox wrote them."))

    public static let legacyArchiveUnread = Rule(
        "legacy-archive-unread", .error, .sessionLost,
        "A legacy tab archive holds tabs and no window file holds any, but today's Firefox will not migrate them: it reads codableTabsState.archive alone, all or nothing (SavedTab objects, tabsState.archive, or a tab its decoder refuses bring no tab).",
        repair: .step(
            "a window file is written with the archive's tabs as Firefox's migration writes them, each tab's history kept as its session state; the archive stays."
        ))
    public static let legacyArchiveUnmigrated = Rule(
        "legacy-archive-unmigrated", .warning, .adjusted,
        "codableTabsState.archive holds tabs and no window file holds any: Firefox migrates them once, at its next launch, unless its migration already ran (a flag kept outside these files); the migration keeps each tab's page, title and privacy and drops its back/forward history.",
        repair: .step(
            "a window file is written with the archive's tabs as Firefox's migration writes them, each tab's history kept as its session state; the archive stays."
        ))
    public static let legacyArchiveLeft = Rule(
        "legacy-archive-left", .info, .none,
        "A legacy tab archive sits beside window files that hold tabs: Firefox read it once, when it moved to window files, and never reads it again; its tabs that no window holds were closed since, or lost by that migration (a damaged one is reported so too).",
        repair: .none(
            "the archive is kept as it is: its tabs can be read with inspect, and a window file written from it would bring back tabs closed since."
        ))
    public static let legacyArchiveUnparsable = Rule(
        "legacy-archive-unparsable", .info, .none,
        "A legacy tab archive is damaged or not a tab archive, and no window file holds a tab: nothing of it reads, for Firefox's migration (which then finds no tab) or for sessionctl.",
        repair: .none(
            "nothing can be read from it to write; the file is kept as it is (beside window files that hold tabs it is legacy-archive-left)."
        ))

    /// The rules above, in order.
    static let firefoxIOSRules: [Rule] = [
        windowFileUnparsable, windowLost, windowOnlyInBackup, backupMissing, backupUnparsable, backupBehind, activeTabMissing,
        firefoxTabIDDuplicate, tabURLInvalid, tabStateUnparsable, windowsSeveral, privateTabsSaved, legacyArchiveUnread,
        legacyArchiveUnmigrated, legacyArchiveLeft, legacyArchiveUnparsable
    ]
}
