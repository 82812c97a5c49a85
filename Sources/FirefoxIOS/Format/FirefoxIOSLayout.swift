import FileSystemKit
import SessionFormats
import SessionModel

/// The names Firefox for iOS gives its tab store's files (docs/firefox-ios-format.md), under the
/// app group container (`group.org.mozilla.ios.Firefox`, `...Fennec` for builds from source).
public enum FirefoxIOSLayout {
    /// The profile directory inside the app group container.
    public static let profileDirectory = "profile.profile"
    /// The directory of the window files.
    public static let windowDataDirectory = "window-data"
    /// The directory of each window file's previous version, copied there before a save.
    public static let backupDirectory = "window-data-backup"
    /// The directory of each tab's WebKit session state (`WKWebView.interactionState`).
    public static let tabSessionDataDirectory = "tab-session-data"
    /// A window file is `window-<UUID>`, without an extension.
    public static let windowFilePrefix = "window-"
    /// A tab's session state file is `tab-<UUID>`.
    public static let tabSessionFilePrefix = "tab-"
    /// The legacy keyed archive of `SavedTab`s (before the window files).
    public static let legacyArchive = "tabsState.archive"
    /// The legacy archive of `SavedTab`s encoded with Codable inside a keyed archive.
    public static let legacyCodableArchive = "codableTabsState.archive"
    /// Both legacy archives, the one today's Firefox migrates first.
    public static let legacyArchiveNames = [legacyCodableArchive, legacyArchive]

    /// The window UUID of a window file's name, when it is one (`window-<UUID>`).
    public static func windowID(fromFileName name: String) -> String? {
        guard name.hasPrefix(windowFilePrefix) else { return nil }
        let id = String(name.dropFirst(windowFilePrefix.count))
        return FirefoxUUID.isValid(id) ? id : nil
    }
}

/// A UUID as Foundation reads it from a string: 32 hex digits in groups of 8-4-4-4-12, either case.
public enum FirefoxUUID {
    /// Whether `text` is a UUID string Foundation's `UUID(uuidString:)` accepts.
    public static func isValid(_ text: String) -> Bool {
        let utf8 = Array(text.utf8)
        guard utf8.count == 36 else { return false }
        for (index, byte) in utf8.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                guard (48...57).contains(byte) || (65...70).contains(byte) || (97...102).contains(byte) else { return false }
            }
        }
        return true
    }
}

extension SessionFormat {
    /// Firefox for iOS's `window-data/window-<UUID>` (JSON) with a WebKit session state per tab.
    public static let windowData = SessionFormat(rawValue: "window-data")
    /// Firefox for iOS's legacy `tabsState.archive` or `codableTabsState.archive` (NSKeyedArchiver).
    public static let tabsArchive = SessionFormat(rawValue: "tabs-archive")
}
