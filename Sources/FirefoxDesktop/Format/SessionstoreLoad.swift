import Archive
import FileSystemKit
import SessionFormats
import SessionModel

/// What Firefox desktop does at startup with a profile's session files (SessionFile's read and
/// SessionStartup, docs/firefox-desktop-format.md): which file it loads, why it passes over each
/// file before it, and whether it then restores the session.
public struct SessionstoreLoad: Sendable {
    /// One session file as Firefox meets it.
    public struct Candidate: Sendable {
        /// The index of the file's read in the input's sessions.
        public var session: Int
        public var role: SessionstoreRole
        public var compressed: Bool
        /// Whether Firefox tries the file at all (an upgrade backup only when prefs.js names its build).
        public var tried: Bool
        /// Why Firefox passes over it; nil for the file it loads, and for files after it.
        public var skipped: String?
    }

    /// What Firefox does with the session it loaded.
    public enum Restore: String, Sendable {
        /// It restores the session at every launch (`browser.startup.page` 3 or
        /// `resume_session_once`).
        case resume
        /// The last run crashed: it restores the session.
        case recover
        /// The last run crashed once too often (or Firefox starts in safe mode): it shows the
        /// session on about:sessionrestore for the user to restore.
        case recoverOnPage = "recover-on-page"
        /// The last run ended cleanly and Firefox does not restore at launch: the session waits
        /// behind "Restore previous session".
        case deferred
        /// No file loads: Firefox starts with an empty session.
        case none
    }

    /// Every session file of the input, in the order Firefox tries them (the mozLz4 files in load
    /// order, then the plain files of old versions in load order), then those it never tries.
    public var candidates: [Candidate]
    /// The index in `candidates` of the file Firefox loads; nil when none loads.
    public var loaded: Int?
    public var restore: Restore
    /// Why Firefox restores as it does, in a phrase.
    public var reason: String

    /// Works out Firefox's startup over the session files `read` holds.
    public init(_ read: InputRead) {
        let settings = read.input.firefoxDesktop ?? FirefoxDesktopSettings()
        let prefs = settings.effectivePrefs
        var candidates: [Candidate] = []
        for (index, session) in read.sessions.enumerated() where session.source.format == .sessionstore {
            let path = SessionstoreLoad.profilePath(session.source)
            let name = lastPathComponent(session.source.path)
            let role = SessionstoreRole.of(path: path)
            let compressed =
                role?.compressed ?? SessionstoreRole.compression(ofName: name) ?? (session.sessionstore?.decoded?.container == .mozLz4)
            let tried = role.map { $0.role != .upgradeBackup || $0.build == prefs.upgradeBackupBuild } ?? true
            candidates.append(Candidate(session: index, role: role?.role ?? .clean, compressed: compressed, tried: tried))
        }
        // Tried first: compressed before plain, each in load order; untried last.
        candidates.sort { lhs, rhs in
            if lhs.tried != rhs.tried { return lhs.tried }
            if lhs.compressed != rhs.compressed { return lhs.compressed }
            if lhs.role != rhs.role { return lhs.role < rhs.role }
            return lhs.session < rhs.session
        }
        var loaded: Int?
        for index in candidates.indices where candidates[index].tried {
            guard let decoded = read.sessions[candidates[index].session].sessionstore?.decoded else {
                candidates[index].skipped = "it cannot be read"
                continue
            }
            if let why = decoded.whyNotLoaded {
                candidates[index].skipped = why
                continue
            }
            loaded = index
            break
        }
        for index in candidates.indices where !candidates[index].tried {
            candidates[index].skipped = "prefs.js names no upgrade backup of its build"
        }
        self.candidates = candidates
        self.loaded = loaded
        let document = loaded.flatMap { read.sessions[candidates[$0].session].sessionstore?.decoded?.document }
        (restore, reason) = SessionstoreLoad.restore(document: document, settings: settings, anyFile: !candidates.isEmpty)
    }

    /// The path of a session file relative to its profile directory: its id, which the family
    /// gives so (a file given alone is named by its name alone).
    static func profilePath(_ source: SessionSource) -> String { source.id }

    /// What SessionStartup makes of the loaded session.
    static func restore(document: SessionstoreDocument?, settings: FirefoxDesktopSettings, anyFile: Bool) -> (Restore, String) {
        let prefs = settings.effectivePrefs
        guard let document else {
            return (.none, anyFile ? "no session file loads" : "there is no session file")
        }
        if prefs.restoresAlways {
            return (
                .resume, prefs.resumeSessionOnce ? "resume_session_once is set" : "browser.startup.page is 3 (restore the previous session)"
            )
        }
        let crashed: Bool
        let how: String
        if let written = settings.finalStateWritten {
            crashed = !written
            how = written ? "the crash monitor saw the final session written" : "the crash monitor did not see the final session written"
        } else {
            crashed = document.stateSaysRunning
            how = "session.state is \(document.state.map { "\"\($0)\"" } ?? "missing") and sessionCheckpoints.json gives nothing"
        }
        guard crashed else { return (.deferred, "the last run ended cleanly (\(how)) and browser.startup.page is \(prefs.startupPage)") }
        guard prefs.resumeFromCrash else { return (.deferred, "the last run crashed (\(how)) but resume_from_crash is off") }
        let (next, overflowed) = (document.recentCrashes ?? 0).addingReportingOverflow(1)
        let crashes = overflowed ? Int.max : next
        let maximum = prefs.maxResumedCrashes
        if maximum != -1, crashes > maximum {
            return (
                .recoverOnPage, "the last run crashed (\(how)), \(crashes) crashes in a row, more than max_resumed_crashes (\(maximum))"
            )
        }
        return (.recover, "the last run crashed (\(how))")
    }
}
