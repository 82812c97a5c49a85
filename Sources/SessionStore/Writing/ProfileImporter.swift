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
            let directory = ProfileWriter.sessionDirectory(profile: profile, session: session)
            if writer.writer.fileSystem.kind(of: directory) != nil {
                throw StoreError.exists(path: directory)
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
