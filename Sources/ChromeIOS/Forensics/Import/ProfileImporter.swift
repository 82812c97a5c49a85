import FileSystemKit
import SessionForensics
import SessionFormats
import SessionModel
import SessionStore

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

    /// Why a session id cannot be a session directory's name, or nil when it can: it must be a
    /// single name of 1 to 255 bytes, without NUL or control characters, not `.` or `..`, and not
    /// one of sessionctl's own `.sessionctl-` names.
    public static func problem(withSessionID id: String) -> String? {
        if id.isEmpty { return "is empty" }
        if id.utf8.count > 255 { return "is longer than the 255 bytes of a file name" }
        if id == "." || id == ".." || id.contains("/") { return "is not a single file name" }
        if id.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { return "holds a NUL or control character" }
        if id.hasPrefix(".sessionctl-") { return "is a name sessionctl keeps for itself" }
        return nil
    }

    /// Checks every session first (no existing session is overwritten, ids are writable), then
    /// writes them all; returns the session directories written. A session the profile already
    /// holds exactly as this writes it is no conflict and is not written again, so that running
    /// an interrupted import again completes it.
    public func importSessions(_ sessions: [Session]) throws -> [String] {
        try check(sessions)
        _ = try InterruptedCommands(writer: writer.writer, profile: profile).removeLeftovers()
        return try write(sessions)
    }

    /// Checks that every session can be written: ids writable and unique, tab ids positive and
    /// unique, and (unless `existingAllowed`) no session already in the profile.
    public func check(_ sessions: [Session], existingAllowed: Bool = false) throws {
        var seen = Set<String>()
        for session in sessions {
            let key = ProfileLayout.sessionDirectory(session.id, incognito: session.incognito)
            guard seen.insert(key).inserted else {
                throw FormatError.invalidDocument(path: session.id, reason: "the document lists this session twice")
            }
            if let problem = ProfileImporter.problem(withSessionID: session.id) {
                throw FormatError.invalidDocument(path: session.id.debugDescription, reason: "the session id \(problem)")
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
            if !existingAllowed && exists(session) && !isImported(session) {
                throw FileSystemError.exists(path: ProfileWriter.sessionDirectory(profile: profile, session: session))
            }
        }
    }

    /// True when the profile holds the session exactly as an import writes it (an earlier import
    /// of the same document, maybe one interrupted after this session): importing it again changes nothing.
    public func isImported(_ session: Session) -> Bool {
        let directory = ProfileWriter.sessionDirectory(profile: profile, session: session)
        let files = writer.writer.fileSystem
        var canonical = session
        canonical.format = .optimized
        guard (try? files.read(joinPath(directory, ProfileLayout.metadataFile))) == ChromeProtoCodec.encodeSessionMetadata(canonical) else {
            return false
        }
        return session.tabs.allSatisfy { tab in
            guard let history = tab.history else { return true }
            let path = joinPath(directory, Tab.directoryName(for: tab.id), ProfileLayout.tabDataFile)
            return (try? files.read(path)) == ChromeProtoCodec.encodeTabData(history)
        }
    }

    /// Writes each session's directory whole under a staging name, then renames it into place
    /// (a session already imported as it is is left alone).
    private func write(_ sessions: [Session]) throws -> [String] {
        var written: [String] = []
        for session in sessions where !(exists(session) && isImported(session)) {
            var canonical = session
            canonical.format = .optimized
            let directory = ProfileWriter.sessionDirectory(profile: profile, session: session)
            // Written whole under a name Chrome never loads, then renamed into place: a window is
            // never half there, and what an interruption leaves is removed by the next import.
            let staging = joinPath(parentPath(directory), InterruptedCommands.importStagingPrefix + lastPathComponent(directory))
            let files = writer.writer
            do throws(FileSystemError) {
                if files.fileSystem.kind(of: staging) != nil { try files.removeTree(staging) }
                try writer.write(canonical, into: staging)
                try files.seal(staging)
                try files.move(staging, to: directory)
            } catch {
                try? files.removeTree(staging)
                throw error
            }
            written.append(directory)
        }
        return written
    }
}
