import FileSystemKit
import SessionFormats
import SessionModel
import SessionStore

/// `aside` on a Firefox desktop profile, whose session is a set of files that each hold every
/// window: `sessionstore.jsonlz4` and `sessionstore-backups/`. An entry (`sessionstore@<stamp>`)
/// holds them all at their paths in the profile, with a manifest, as repair's does; Firefox then
/// starts with a new session, and `aside restore` writes each file back atomically.
extension Aside {
    /// The session id a Firefox desktop profile's entries carry: its session files go together.
    static let firefoxDesktopSession = "sessionstore"

    /// The names an entry's files start with when it holds Firefox desktop session files.
    static let firefoxDesktopEntryRoots: Set<String> = [
        SessionstoreRole.clean.path(), SessionstoreRole.clean.path(compressed: false), FirefoxDesktopLayout.backupsDirectory
    ]

    /// The profile's Firefox desktop input, when it is one.
    func firefoxDesktopInput() -> LocatedInput? {
        guard let input = try? InputOpener.open(profile, fileSystem: fileSystem, browser: FirefoxDesktopFamily()),
            input.kind == .profile
        else { return nil }
        return input
    }

    /// Sets aside every session file of a Firefox desktop profile in one entry (`session`, when
    /// given, must be `sessionstore`: every file holds every window), hard-linked with a manifest
    /// and then removed from the profile, the clean file last. Returns the new entry, or none
    /// when the profile holds no session file.
    func pushSessionstoreFiles(_ input: LocatedInput, session: SessionID?, reason: String) throws -> [AsideEntry] {
        if let session, session != Self.firefoxDesktopSession {
            throw ForensicsError.sessionNotFound(profile: profile, session: session, incognito: false)
        }
        let files = input.sessions.map(\.path).filter { fileSystem.kind(of: joinPath(profile, $0)) != nil }.sorted()
        guard !files.isEmpty else { return [] }
        for file in files {
            try checkInsideProfile(file)
            guard fileSystem.kind(of: joinPath(profile, file)) == .file else {
                throw ForensicsError.unsafeToMove(path: joinPath(profile, file), reason: "not a regular file")
            }
        }
        let key = SessionKey(id: Self.firefoxDesktopSession, incognito: false)
        let pushed = try SessionSetAside(writer: writer, profile: profile).pushFiles(
            files, key: key, reason: reason, time: clock(), toolVersion: toolVersion)
        // The clean file, which Firefox tries first, goes last: a push cut short leaves a session
        // Firefox still loads, and a rerun sets the rest aside.
        let clean = Set([SessionstoreRole.clean.path(), SessionstoreRole.clean.path(compressed: false)])
        for file in files.filter({ !clean.contains($0) }) + files.filter(clean.contains) {
            try fileSystem.unlink(joinPath(profile, file))
        }
        for directory in Set(files.map { parentPath(joinPath(profile, $0)) }).sorted() { try writer.syncDirectory(directory) }
        return try entry(id: key.id, incognito: false, stamp: pushed.stamp).map { [$0] } ?? []
    }
}
