/// The rules of Firefox desktop's session files: which file Firefox loads at startup, what
/// passing over the ones before it loses, and whether it restores the session at all
/// (docs/firefox-desktop-format.md, loading).
extension Rule {
    public static let sessionFileSkipped = Rule(
        "session-file-skipped", .error, .tabLost,
        "A session file Firefox tries before the one it loads does not load (its mozLz4 block or its JSON is damaged or cut short, or its version is newer than Firefox reads): Firefox passes over it, losing the tabs that can be read from it and the file it loads lacks.",
        repair: .step(
            "sessionstore.jsonlz4 is written with every tab that can be read from every session file, merged without duplicates, the session files set aside first and the damaged ones then removed."
        ))
    public static let sessionFilesNoneLoad = Rule(
        "session-files-none-load", .error, .sessionLost,
        "No session file loads: Firefox starts with an empty session.",
        repair: .step(
            "sessionstore.jsonlz4 is written with every tab that can be read from every session file, merged without duplicates, the session files set aside first and the damaged ones then removed; with no tab readable, nothing is written."
        ))
    public static let sessionFileDamaged = Rule(
        "session-file-damaged", .info, .none,
        "A session file is damaged but loses nothing: Firefox loads another before it, or everything that can be read from it is in the file Firefox loads (a mozLz4 header that gives more bytes than its block holds, which Firefox accepts, is reported so too).",
        repair: .withRewrite(
            "the file is set aside, and removed when it does not load, when sessionstore.jsonlz4 is written for another finding."))
    public static let upgradeBackupUnread = Rule(
        "upgrade-backup-unread", .info, .none,
        "An upgrade backup (upgrade.jsonlz4-<build>) whose build prefs.js does not name: Firefox never reads it (its tabs can still be read with inspect).",
        repair: .none("Firefox keeps its latest upgrade backups and deletes older ones itself; the file is kept as it is."))
    public static let sessionNotRestoredAtLaunch = Rule(
        "session-not-restored-at-launch", .info, .none,
        "The browser reads the session but does not restore it at launch. Firefox desktop: the last run ended cleanly and browser.startup.page is not 3 (the session waits behind Restore previous session), resume_from_crash is off, or crashes in a row passed max_resumed_crashes (Firefox shows about:sessionrestore). Chromium desktop: Preferences' session.restore_on_startup is not 1 or 6 (Chrome opens the New Tab page or its startup URLs, and the next launch deletes the file).",
        repair: .none("whether the browser restores at launch is its preferences' choice; the session is kept for it to restore."))

    static let firefoxDesktopRules: [Rule] = [
        sessionFileSkipped, sessionFilesNoneLoad, sessionFileDamaged, upgradeBackupUnread, sessionNotRestoredAtLaunch
    ]
}
