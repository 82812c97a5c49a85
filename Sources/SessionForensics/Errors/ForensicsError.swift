import SessionFormats

/// Everything that can go wrong in the forensics layer beyond reading and writing files.
public enum ForensicsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The path is not a profile of a browser the command works on (nor a session directory
    /// inside one); the reason names the browser where one is recognised.
    case notAProfile(path: String, reason: String)
    /// The path is one session, and the command converts a whole profile (a usage error).
    case notWholeProfile(path: String, command: String)
    /// No live session with this id (of this kind) is in the profile.
    case sessionNotFound(profile: String, session: String, incognito: Bool)
    /// No set-aside entry has this name.
    case entryNotFound(profile: String, entry: String)
    /// A set-aside entry name or session id is malformed (or could escape the profile).
    case invalidName(String, reason: String)
    /// A live session is where an entry would be restored.
    case liveSessionInTheWay(path: String)
    /// A session cannot be migrated as it is (Chrome would lose it, or part of it cannot be read).
    case cannotMigrate(session: String, reason: String)
    /// What a command would move is not safe to move: reached through a symbolic link (so out of
    /// the profile), or holding a file that cannot be read (its manifest could not be written).
    case unsafeToMove(path: String, reason: String)
    /// A set-aside entry does not read back as it was set aside (a file missing, changed,
    /// unreadable or of a kind a restore would drop): nothing of it is restored.
    case entryDamaged(entry: String, reason: String)
    /// The command does not work on this browser's profiles yet.
    case notSupported(path: String, command: String, browser: String)
    /// The browser is running with the profile (its lock is held): it writes its own session over
    /// whatever a command would write, so nothing is changed.
    case browserRunning(path: String, browser: String, lock: String, pid: Int32?)
    /// Repair cannot write what it planned without losing something (fewer tabs than the browser
    /// restores today, a file name the browser would not pick): nothing is changed.
    case cannotRepair(path: String, reason: String)

    public var description: String {
        switch self {
        case .notAProfile(let path, let reason): return "\(path): not a profile: \(reason)"
        case .notWholeProfile(let path, let command):
            return "\(path) is one session; \(command) converts a whole profile (give the profile directory)"
        case .sessionNotFound(let profile, let session, let incognito):
            return "\(profile): no live \(incognito ? "incognito " : "")session \(session)"
        case .entryNotFound(let profile, let entry): return "\(profile): no set-aside entry \(entry) (see aside list)"
        case .invalidName(let name, let reason): return "\(name): \(reason)"
        case .liveSessionInTheWay(let path): return "\(path): a live session is there (--force sets it aside first)"
        case .cannotMigrate(let session, let reason): return "session \(session): cannot migrate: \(reason)"
        case .unsafeToMove(let path, let reason): return "\(path): not moved: \(reason)"
        case .cannotRepair(let path, let reason): return "\(path): not repaired: \(reason)"
        case .entryDamaged(let entry, let reason): return "\(entry): not restored: \(reason)"
        case .browserRunning(let path, let browser, let lock, let pid):
            let by = pid.map { " by process \($0)" } ?? ""
            return
                "\(path): \(browser) is running with this profile (\(lock) is held\(by)); quit it and run again: it writes its own session over the profile's files as it runs and when it quits"
        case .notSupported(let path, let command, let browser):
            let targets = ProfileMigrations.all.filter { BrowserFamilies.named($0.target.browser)?.displayName == browser }
            let migrate =
                command == "migrate" && !targets.isEmpty
                ? " (but \(targets.map { "migrate --to \($0.target)" }.joined(separator: " or ")) does)" : ""
            return
                "\(path): \(command) does not work on \(browser) profiles yet\(migrate) (inspect, validate, repair, diff, report and compress do)"
        }
    }
}
