import FileSystemKit
import SessionModel

/// Names and paths of Chrome for iOS's profile layout (docs/chrome-ios-format.md, where sessions
/// live).
public enum ProfileLayout {
    public static let optimizedDirectory = "SessionStorage"
    public static let legacyDirectory = "Sessions"
    public static let incognitoDirectory = "OTR"
    public static let backupsDirectory = "Backups"
    public static let legacyWebSessionsDirectory = "Web_Sessions"
    public static let metadataFile = "session_metadata.pb"
    public static let tabDataFile = "data.pb"
    public static let tabStateFile = "state.pb"
    public static let transitionalTabMetadataFile = "metadata.pb"
    public static let legacySessionFile = "session.plist"
    public static let legacyBackupFile = "session.backup.plist"
    /// The state directories Chrome keeps in a profile: a directory holding one is a profile.
    public static let stateDirectories = [optimizedDirectory, legacyDirectory, incognitoDirectory, backupsDirectory]
    /// Chrome loads no state.pb larger than this.
    public static let maxStateSize = 5 * 1024 * 1024
    /// Chrome keeps at most this many navigation items per tab.
    public static let maxNavigationItems = 75

    /// The state directory of a profile's regular or incognito side, relative to the profile.
    public static func stateRoot(incognito: Bool) -> String { incognito ? incognitoDirectory : "" }

    /// `SessionStorage/<id>` (or `OTR/SessionStorage/<id>`), relative to the profile.
    public static func sessionDirectory(_ id: SessionID, incognito: Bool) -> String {
        joinPath(stateRoot(incognito: incognito), optimizedDirectory, id)
    }

    /// The directory of a tab inside a session directory.
    public static func tabDirectory(_ tab: TabID, in session: String) -> String {
        joinPath(session, Tab.directoryName(for: tab))
    }

    /// `Sessions/<id>/session.plist` (or under `OTR/`), relative to the profile.
    public static func legacySessionFile(_ id: SessionID, incognito: Bool) -> String {
        joinPath(stateRoot(incognito: incognito), legacyDirectory, id, legacySessionFile)
    }
}
