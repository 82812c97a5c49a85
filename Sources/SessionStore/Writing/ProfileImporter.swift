import SessionFormats
import SessionModel

/// Writes sessions described by a document into a profile directory that must not already hold them.
public struct ProfileImporter: Sendable {
    public let profile: String
    public let writer: ProfileWriter

    public init(profile: String, writer: ProfileWriter = ProfileWriter()) {
        self.profile = profile
        self.writer = writer
    }

    /// True when the profile already holds a session with this id on the same (regular or incognito) side.
    public func exists(_ session: Session) -> Bool {
        writer.writer.fileSystem.kind(of: ProfileWriter.sessionDirectory(profile: profile, session: session)) != nil
    }

    /// Checks every session first (no existing session is overwritten, ids are writable), then
    /// writes them all; returns the session directories written.
    public func importSessions(_ sessions: [Session]) throws -> [String] {
        var seen = Set<String>()
        for session in sessions {
            let key = ProfileLayout.sessionDirectory(session.id, incognito: session.incognito)
            guard seen.insert(key).inserted else {
                throw FormatError.invalidDocument(path: session.id, reason: "the document lists this session twice")
            }
            var tabIDs = Set<TabID>()
            for tab in session.tabs {
                guard tab.id > 0 else {
                    throw FormatError.invalidDocument(path: session.id, reason: "tab id \(tab.id) is not a positive 32-bit integer")
                }
                guard tabIDs.insert(tab.id).inserted else {
                    throw FormatError.invalidDocument(path: session.id, reason: "tab id \(tab.id) appears twice")
                }
            }
            if exists(session) {
                throw StoreError.exists(path: ProfileWriter.sessionDirectory(profile: profile, session: session))
            }
        }
        var written: [String] = []
        for session in sessions {
            var canonical = session
            canonical.format = .optimized
            try writer.write(canonical, profile: profile)
            written.append(ProfileWriter.sessionDirectory(profile: profile, session: session))
        }
        return written
    }
}
