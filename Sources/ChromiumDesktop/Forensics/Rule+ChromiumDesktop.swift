import Archive
import FileSystemKit
import SessionForensics
import SessionFormats
import SessionModel
import SessionStore

/// The rules of Chromium desktop's session files: which file Chrome restores at launch, where it
/// stops reading or replaying it and what that loses, what it drops, and whether it restores at
/// all (docs/chromium-desktop-format.md).
extension Rule {
    private static let snssRewrite =
        "a new version-3 Session_ file is written with the full state of every window and tab that can be read (from past the damage too) and the marker, as Chrome's own reset writes it, newer than every other session file so that Chrome takes it; every Session_ file is set aside first, outside Sessions/."
    public static let snssRecordDamaged = Rule(
        "snss-record-damaged", .error, .tabLost,
        "In the Session_ file Chrome restores, a record of size zero, a size past the end of the file, or a lone byte where a record should be: Chrome stops reading there, losing every tab and change after it that can be read past the damage.",
        repair: .step(snssRewrite))
    public static let snssCommandUnparsable = Rule(
        "snss-command-unparsable", .error, .tabLost,
        "In the Session_ file Chrome restores, a command whose contents do not read as Chromium reads them (a struct of the wrong size, a pickle cut short): Chrome stops replaying there, losing the tabs and changes of every command after it.",
        repair: .step(snssRewrite))
    public static let snssCommandUnknown = Rule(
        "snss-command-unknown", .error, .tabLost,
        "In the Session_ file Chrome restores, a command id no browser of the family writes (Chromium does not know it, nor does the product that wrote the profile: Edge's and Vivaldi's own commands are read as they read them), or an obsolete one: Chrome stops replaying there, losing the tabs and changes of every command after it.",
        repair: .step(snssRewrite))
    public static let snssFileDamaged = Rule(
        "snss-file-damaged", .info, .none,
        "A Session_ file is damaged, or holds a command Chrome stops at, but nothing is lost: nothing after the place Chrome stops holds a tab it would not restore.",
        repair: .withRewrite("the file is set aside with the others when a Session_ file is written for another finding."))
    public static let snssTabWithoutWindow = Rule(
        "snss-tab-without-window", .error, .tabLost,
        "A tab with navigations that no SetTabWindow command puts in a window: Chrome gives it a window of its own that is never typed, and drops both.",
        repair: .step(snssRewrite + " The tab goes into a window of its own."))
    public static let snssWindowWithoutType = Rule(
        "snss-window-without-type", .error, .tabLost,
        "A window with tabs that no SetWindowType command types: Chrome restores no such window, and its tabs are lost.",
        repair: .step(snssRewrite + " The window is written as a normal window."))
    public static let snssSelectedIndexOutOfRange = Rule(
        "snss-selected-index-out-of-range", .warning, .adjusted,
        "A window's selected tab or a tab's selected navigation names none there: Chrome selects the window's first tab, or the tab's last navigation.",
        repair: .step(snssRewrite + " The selection written is the one Chrome makes."))
    public static let snssMarkerMissing = Rule(
        "snss-marker-missing", .info, .none,
        "A version-3 Session_ file without the marker that ends a full state (a reset cut short): Chrome passes over it for an older file with the marker, and deletes it at launch.",
        repair: .withRewrite("the file is set aside with the others when a Session_ file is written for another finding."))
    public static let snssEncrypted = Rule(
        "snss-encrypted", .error, .sessionLost,
        "The Session_ file Chrome takes has an encrypted header (version 2 or 4, which Chrome desktop never reads, or 5 outside Sessions_Encrypted/): Chrome restores nothing from it, and an older file it hides is deleted at launch.",
        repair: .step(
            "an encrypted file cannot be read without the browser's key: a Session_ file is written, as for the other rules, from the newest file it hides that can be read (all of them set aside first, the encrypted one too); with none, nothing is written."
        ))
    public static let snssVersionUnsupported = Rule(
        "snss-version-unsupported", .error, .sessionLost,
        "The Session_ file Chrome takes has a header the newest Chromium does not read (version 1, written before 2021, another version, or no SNSS header): it restores nothing, and an older file it hides is deleted at launch.",
        repair: .step(snssRewrite))
    public static let snssLegacyNames = Rule(
        "snss-legacy-names", .error, .sessionLost,
        "Only the names of Chrome before 85 (Current Session, Last Session at the profile root) hold a session: the newest Chromium never reads them.",
        repair: .step(snssRewrite))
    public static let sessionCrashed = Rule(
        "session-crashed", .info, .none,
        "Preferences says the last run did not end cleanly (profile.exit_type Crashed, as it also says while Chrome runs): Chrome does not restore by itself; it opens a New Tab page and offers Restore in a bubble, writing nothing to Sessions/ until the user answers.",
        repair: .none("the session is kept for the bubble's Restore; repair does not change Preferences."))

    static let chromiumDesktopRules: [Rule] = [
        snssRecordDamaged, snssCommandUnparsable, snssCommandUnknown, snssVersionUnsupported, snssEncrypted, snssLegacyNames,
        snssTabWithoutWindow, snssWindowWithoutType, snssMarkerMissing, sessionCrashed, snssSelectedIndexOutOfRange, snssFileDamaged,
        sessionNotRestoredAtLaunch
    ]
}
