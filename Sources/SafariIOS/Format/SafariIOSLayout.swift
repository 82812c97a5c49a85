import FileSystemKit
import SessionFormats
import SessionModel

/// Names of Safari for iOS's session store (docs/safari-ios-format.md): `BrowserState.db`, an
/// SQLite database in WAL mode, in `Library/Safari/` of the phone's home directory or of an
/// app's container.
public enum SafariIOSLayout {
    /// The database Safari keeps its windows and tabs in.
    public static let databaseFile = "BrowserState.db"
    /// The files SQLite keeps beside it in WAL mode: the newest writes often live only there.
    public static let companionSuffixes = ["-wal", "-shm"]
    /// The directory holding it, inside `Library/`.
    public static let safariDirectory = "Safari"
    /// The directory holding that, in a home directory or a container.
    public static let libraryDirectory = "Library"
    /// The `PRAGMA user_version` of current iOS, and the next one, which Safari also opens.
    public static let knownUserVersions: Set<Int64> = [8, 9]
    /// A raw session state of this size or more is stored compressed (`AppleLZ4`).
    public static let compressionThreshold = 1 << 20
    /// A raw session state over this size is dropped: the tab restores without its history.
    public static let largestRestoredState = 2 << 20

    /// The file IDs of the database and its companions in an iTunes or Finder backup: SHA-1 of
    /// `HomeDomain-Library/Safari/BrowserState.db` (and `-wal`, `-shm`), each stored as
    /// `<first two hex digits>/<ID>` under the backup's directory beside `Manifest.db`.
    public static let backupDatabaseID = "3a47b0981ed7c10f3e2800aa66bac96a3b5db28e"
    public static let backupCompanionIDs = ["9daa36ddcb417e5df95d0a4fe56a950d1b0a2125", "936cfa992a621eb1317b8e1af66adb56bde77b5c"]
    /// The file a backup lists its files in (an encrypted backup's is itself encrypted).
    public static let backupManifest = "Manifest.db"

    /// The path of a backup's file of `id`, relative to the backup.
    public static func backupPath(_ id: String) -> String { joinPath(String(id.prefix(2)), id) }

    /// The paths of the `-wal` and `-shm` of the database at `database`: beside it, or in a
    /// backup, at their own file IDs.
    public static func companions(of database: String) -> [String] {
        guard lastPathComponent(database) == backupDatabaseID else { return companionSuffixes.map { database + $0 } }
        let backup = parentPath(parentPath(database))
        return backupCompanionIDs.map { joinPath(backup, backupPath($0)) }
    }

    /// The database file and the companions that are there, relative to the tree.
    public static func files(database: String, tree: ReadableTree) -> [String] {
        [database] + companions(of: database).filter { tree.kind(of: $0) == .file }
    }
}

extension SessionFormat {
    /// Safari for iOS's `BrowserState.db`.
    public static let browserState = SessionFormat(rawValue: "browser-state")
}

/// Safari for iOS's times: seconds since 2001-01-01 00:00 UTC on iOS up to 18, seconds since
/// 1970 on iOS 26. A value is told by its size: a time after 2048 counted from 2001 is past
/// 1.5e9 seconds, a time after mid-2017 counted from 1970 is past it too, and Safari wrote the
/// latter only from 2025.
public enum SafariTime {
    /// Seconds from the Unix epoch to 2001-01-01 00:00 UTC.
    public static let referenceOffset: Double = 978_307_200
    /// Values from here on are seconds since 1970.
    public static let unixFrom: Double = 1.5e9

    /// The model timestamp of a stored time (null when absent, zero, not finite or out of range).
    public static func timestamp(_ seconds: Double?) -> Timestamp {
        guard let seconds, seconds.isFinite, seconds != 0 else { return .null }
        let unixSeconds = seconds >= unixFrom ? seconds : seconds + referenceOffset
        let micros = unixSeconds * 1_000_000
        guard abs(micros) < 9.0e18, let unix = Int64(exactly: micros.rounded()) else { return .null }
        return Timestamp(unixMicroseconds: unix)
    }
}
