import Archive
import FileSystemKit
import SessionFormats
import SessionModel

/// The names Firefox desktop gives its session store's files in a profile directory
/// (docs/firefox-desktop-format.md), and the order it tries them in at startup.
public enum FirefoxDesktopLayout {
    /// The session written at a clean shutdown, in the profile directory.
    public static let cleanFile = "sessionstore.jsonlz4"
    /// The directory of the other session files.
    public static let backupsDirectory = "sessionstore-backups"
    /// The session written while Firefox runs (every 15 seconds by default).
    public static let recoveryFile = "recovery.jsonlz4"
    /// The previous `recovery.jsonlz4`, renamed to this before each write of it.
    public static let recoveryBackupFile = "recovery.baklz4"
    /// The clean file of the launch before, renamed to this once Firefox has loaded from it.
    public static let cleanBackupFile = "previous.jsonlz4"
    /// Copies made at an upgrade: `upgrade.jsonlz4-<build id>`.
    public static let upgradePrefix = "upgrade.jsonlz4-"
    /// The preferences file, read for what decides whether and what Firefox restores.
    public static let prefsFile = "prefs.js"
    /// The crash monitor's checkpoints: whether the last run finished writing its final session.
    public static let checkpointsFile = "sessionCheckpoints.json"

    /// The build id of an upgrade backup's name (compressed or not), when it is one.
    public static func upgradeBuild(fromFileName name: String) -> String? {
        for prefix in [upgradePrefix, SessionstoreRole.uncompressed(upgradePrefix)] where name.hasPrefix(prefix) {
            let build = String(name.dropFirst(prefix.count))
            return build.isEmpty ? nil : build
        }
        return nil
    }
}

/// Which of its session files a file is to Firefox: its place in the startup load order.
public enum SessionstoreRole: String, Sendable, Hashable, CaseIterable, Comparable {
    /// `sessionstore.jsonlz4`: written at a clean shutdown; tried first.
    case clean
    /// `sessionstore-backups/recovery.jsonlz4`: the running session; tried second.
    case recovery
    /// `sessionstore-backups/recovery.baklz4`: the running session one write before; third.
    case recoveryBackup = "recovery-backup"
    /// `sessionstore-backups/previous.jsonlz4`: the clean file of the launch before; fourth.
    case cleanBackup = "clean-backup"
    /// `sessionstore-backups/upgrade.jsonlz4-<build>`: tried last, and only when prefs.js names the build.
    case upgradeBackup = "upgrade-backup"

    public static func < (lhs: SessionstoreRole, rhs: SessionstoreRole) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }

    /// The file's path relative to the profile directory (an upgrade backup's with `build`), in
    /// the mozLz4 names Firefox reads first or, `compressed` false, the plain JSON names of old
    /// versions that it falls back to when no compressed file loads.
    public func path(build: String = "", compressed: Bool = true) -> String {
        let name: String
        switch self {
        case .clean: return compressed ? FirefoxDesktopLayout.cleanFile : Self.uncompressed(FirefoxDesktopLayout.cleanFile)
        case .recovery: name = FirefoxDesktopLayout.recoveryFile
        case .recoveryBackup: name = FirefoxDesktopLayout.recoveryBackupFile
        case .cleanBackup: name = FirefoxDesktopLayout.cleanBackupFile
        case .upgradeBackup: name = FirefoxDesktopLayout.upgradePrefix + build
        }
        return joinPath(FirefoxDesktopLayout.backupsDirectory, compressed ? name : Self.uncompressed(name))
    }

    /// Firefox's old names for a file: `jsonlz4` becomes `js` and `baklz4` becomes `bak`.
    static func uncompressed(_ name: String) -> String {
        let bytes = Array(name.utf8)
        for (from, to) in [("jsonlz4", "js"), ("baklz4", "bak")] {
            let needle = Array(from.utf8)
            guard bytes.count >= needle.count else { continue }
            for start in 0...(bytes.count - needle.count) where bytes[start..<start + needle.count].elementsEqual(needle) {
                return String(decoding: bytes[..<start] + Array(to.utf8) + bytes[(start + needle.count)...], as: UTF8.self)
            }
        }
        return name
    }

    /// Whether Firefox reads a file of this name as mozLz4 (`*lz4`, `upgrade.jsonlz4-*`: true)
    /// or as plain JSON (`*.js`, `*.bak`, `upgrade.js-*`: false); nil for another name, whose
    /// content decides.
    public static func compression(ofName name: String) -> Bool? {
        if name.hasSuffix("lz4") || name.hasPrefix(FirefoxDesktopLayout.upgradePrefix) { return true }
        if name.hasSuffix(".js") || name.hasSuffix(".bak") || name.hasPrefix(uncompressed(FirefoxDesktopLayout.upgradePrefix)) {
            return false
        }
        return nil
    }

    /// The role and build of a path relative to the profile directory, and whether it is a
    /// compressed name; nil for any other file.
    public static func of(path: String) -> (role: SessionstoreRole, build: String, compressed: Bool)? {
        let parts = pathComponents(path)
        guard let name = parts.last else { return nil }
        let inBackups = parts.count == 2 && parts[0] == FirefoxDesktopLayout.backupsDirectory
        for compressed in [true, false] {
            if parts.count == 1, name == SessionstoreRole.clean.path(compressed: compressed) { return (.clean, "", compressed) }
            guard inBackups else { continue }
            for role in [SessionstoreRole.recovery, .recoveryBackup, .cleanBackup]
            where pathComponents(role.path(compressed: compressed)).last == name {
                return (role, "", compressed)
            }
            let prefix = compressed ? FirefoxDesktopLayout.upgradePrefix : uncompressed(FirefoxDesktopLayout.upgradePrefix)
            if name.hasPrefix(prefix), name.count > prefix.count {
                return (.upgradeBackup, String(name.dropFirst(prefix.count)), compressed)
            }
        }
        return nil
    }
}

extension SessionFormat {
    /// Firefox desktop's session files (`sessionstore.jsonlz4` and `sessionstore-backups/`): mozLz4-compressed JSON.
    public static let sessionstore = SessionFormat(rawValue: "sessionstore")
}
