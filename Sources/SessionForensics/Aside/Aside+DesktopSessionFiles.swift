import FileSystemKit
import SessionFormats
import SessionModel
import SessionStore

/// `aside` on a desktop browser's profile, whose session is a set of files that each hold every
/// window: Firefox desktop's `sessionstore.jsonlz4` and `sessionstore-backups/`, Chromium
/// desktop's `Sessions/` (and the legacy `Current Session` and its kin). An entry
/// (`sessionstore@<stamp>`, `Sessions@<stamp>`) holds them all at their paths in the profile,
/// with a manifest, as repair's does; the browser then starts with a new session, and
/// `aside restore` writes each file back atomically.
extension Aside {
    /// The session id a Firefox desktop profile's entries carry: its session files go together.
    static let firefoxDesktopSession = "sessionstore"
    /// The session id a Chromium desktop profile's entries carry.
    static let chromiumDesktopSession = ChromiumDesktopLayout.sessionsDirectory

    /// The names an entry's files start with when it holds desktop session files.
    static let desktopEntryRoots: Set<String> = Set(
        [SessionstoreRole.clean.path(), SessionstoreRole.clean.path(compressed: false), FirefoxDesktopLayout.backupsDirectory]
            + [ChromiumDesktopLayout.sessionsDirectory] + ChromiumDesktopLayout.legacyNames.keys)

    /// The profile's session files when it is a desktop browser's profile: the entry's session id,
    /// the files (relative to the profile), and those removed last (what the browser loads first,
    /// so that a push cut short leaves a session it still loads, and a rerun sets the rest aside).
    func desktopSessionFiles() -> (session: SessionID, files: [String], removedLast: Set<String>)? {
        for family in [FirefoxDesktopFamily() as any BrowserFamily, ChromiumDesktopFamily()] {
            guard let input = try? InputOpener.open(profile, fileSystem: fileSystem, browser: family), input.kind == .profile else {
                continue
            }
            let files = input.sessions.map(\.path).filter { fileSystem.kind(of: joinPath(profile, $0)) != nil }.sorted()
            if family.name == FirefoxDesktopFamily().name {
                let clean = Set([SessionstoreRole.clean.path(), SessionstoreRole.clean.path(compressed: false)])
                return (Self.firefoxDesktopSession, files, clean)
            }
            // Chrome takes the newest Session_ file by the time in its name.
            let newest = files.filter { ChromiumDesktopLayout.parse(lastPathComponent($0))?.type == .session }
                .max {
                    (ChromiumDesktopLayout.parse(lastPathComponent($0))?.time ?? 0)
                        < (ChromiumDesktopLayout.parse(lastPathComponent($1))?.time ?? 0)
                }
            return (Self.chromiumDesktopSession, files, Set([newest].compactMap { $0 }))
        }
        return nil
    }

    /// Sets aside every session file of a desktop profile in one entry (`session`, when given,
    /// must be the entry's session id: every file holds every window), hard-linked with a
    /// manifest and then removed from the profile, what the browser loads first last. Returns
    /// the new entry, or none when the profile holds no session file.
    func pushDesktopSessionFiles(
        _ found: (session: SessionID, files: [String], removedLast: Set<String>), session: SessionID?, reason: String
    )
        throws -> [AsideEntry]
    {
        if let session, session != found.session {
            throw ForensicsError.sessionNotFound(profile: profile, session: session, incognito: false)
        }
        let files = found.files
        guard !files.isEmpty else { return [] }
        for file in files {
            try checkInsideProfile(file)
            guard fileSystem.kind(of: joinPath(profile, file)) == .file else {
                throw ForensicsError.unsafeToMove(path: joinPath(profile, file), reason: "not a regular file")
            }
        }
        let key = SessionKey(id: found.session, incognito: false)
        let pushed = try SessionSetAside(writer: writer, profile: profile).pushFiles(
            files, key: key, reason: reason, time: clock(), toolVersion: toolVersion)
        for file in files.filter({ !found.removedLast.contains($0) }) + files.filter(found.removedLast.contains) {
            try fileSystem.unlink(joinPath(profile, file))
        }
        for directory in Set(files.map { parentPath(joinPath(profile, $0)) }).sorted() { try writer.syncDirectory(directory) }
        return try entry(id: key.id, incognito: false, stamp: pushed.stamp).map { [$0] } ?? []
    }
}
