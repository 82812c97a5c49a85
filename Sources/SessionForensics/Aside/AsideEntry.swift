import SessionFormats
import SessionModel

/// A session set aside in a profile's `Backups/`: one of ours (`Backups/<id>/<UTC stamp>/` with a
/// manifest.json) or Chrome's own (`Backups/<id>/session.backup.plist`, left by its crash helper).
public struct AsideEntry: Sendable, Equatable {
    /// Who set the session aside.
    public enum Origin: String, Sendable, Equatable {
        case sessionctl
        case chrome
    }

    /// What `aside restore` and `aside drop` take: `<SessionID>@<UTC stamp>`, or
    /// `<SessionID>@chrome` for Chrome's own backup.
    public var name: String
    public var session: SessionID
    public var incognito: Bool
    public var origin: Origin
    /// Why it was set aside, from the manifest; nil when there is none.
    public var reason: String?
    /// When it was set aside; nil when unknown (Chrome's backups).
    public var time: Timestamp?
    /// The entry's directory (ours) or file (Chrome's), relative to the profile.
    public var path: String
    /// Number of session files in the entry (the manifest not counted).
    public var files: Int
    /// Their total size.
    public var bytes: Int64
    /// False for an entry of ours whose manifest is missing or unreadable (for instance when the
    /// process setting it aside was interrupted after the move).
    public var hasManifest: Bool

    public init(
        name: String, session: SessionID, incognito: Bool, origin: Origin, reason: String?, time: Timestamp?,
        path: String, files: Int, bytes: Int64, hasManifest: Bool
    ) {
        self.name = name
        self.session = session
        self.incognito = incognito
        self.origin = origin
        self.reason = reason
        self.time = time
        self.path = path
        self.files = files
        self.bytes = bytes
        self.hasManifest = hasManifest
    }

    /// The name suffix of Chrome's own backups.
    public static let chromeSuffix = "chrome"

    /// Splits an entry name into its session id and its stamp (or `chrome`), refusing names that
    /// are not entry names or that could reach outside the profile's `Backups/`.
    public static func parseName(_ name: String) throws(ForensicsError) -> (session: SessionID, stamp: String) {
        guard let at = name.lastIndex(of: "@") else {
            throw .invalidName(name, reason: "not a set-aside entry name (<SessionID>@<UTC stamp>)")
        }
        let session = String(name[..<at])
        let stamp = String(name[name.index(after: at)...])
        try validateSessionID(session)
        guard stamp == chromeSuffix || AsideStamp.isStamp(stamp) else {
            throw .invalidName(name, reason: "not a set-aside entry name (<SessionID>@<UTC stamp>)")
        }
        return (session, stamp)
    }

    /// Refuses session ids that are empty or could name another directory than one of a session.
    public static func validateSessionID(_ id: String) throws(ForensicsError) {
        guard !id.isEmpty, id != ".", id != "..", !id.contains("/"), !id.utf8.contains(0) else {
            throw .invalidName(id, reason: "not a session id")
        }
    }
}
