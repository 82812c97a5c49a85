import Archive
import FileSystemKit
import SessionForensics
import SessionFormats
import SessionModel
import SessionStore

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

    static let firefoxDesktopRules: [Rule] = [
        sessionFileSkipped, sessionFilesNoneLoad, sessionFileDamaged, upgradeBackupUnread, sessionNotRestoredAtLaunch
    ]
}
