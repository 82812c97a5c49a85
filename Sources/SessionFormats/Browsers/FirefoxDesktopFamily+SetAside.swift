import FileSystemKit
import SessionModel

/// Firefox desktop's session is a set of files that each hold every window
/// (`sessionstore.jsonlz4` and `sessionstore-backups/`): one entry holds them all.
extension FirefoxDesktopFamily {
    /// The session id a Firefox desktop profile's entries carry: its session files go together.
    public static let setAsideSession: SessionID = "sessionstore"

    /// Every session file of the profile there is, in one unit (`sessionstore`). Firefox writes
    /// no private window to its session files.
    public func setAsideUnits(_ input: LocatedInput, session: SessionID?, incognito: Bool) throws(FileSystemError) -> [SetAsideUnit] {
        DesktopSessionFiles.units(input, id: Self.setAsideSession, session: session, incognito: incognito, loadedFirst: loadedFirst)
    }

    public var setAsideRoots: Set<String> {
        [SessionstoreRole.clean.path(), SessionstoreRole.clean.path(compressed: false), FirefoxDesktopLayout.backupsDirectory]
    }

    /// The clean-shutdown file, which Firefox reads before the backups.
    public func loadedFirst(of files: [String]) -> [String] {
        let clean = [SessionstoreRole.clean.path(), SessionstoreRole.clean.path(compressed: false)]
        return files.filter(clean.contains)
    }
}

/// The one unit of a desktop browser's profile, whose session files each hold every window.
enum DesktopSessionFiles {
    /// The files of `input` that are there, sorted, as one unit named `id` (none when the profile
    /// holds no session file or has no private side; `session`, when given, must be `id`).
    static func units(
        _ input: LocatedInput, id: SessionID, session: SessionID?, incognito: Bool, loadedFirst: ([String]) -> [String]
    ) -> [SetAsideUnit] {
        guard !incognito, session == nil || session == id else { return [] }
        let files = input.sessions.map(\.path).filter { input.tree.fileSystem.kind(of: input.tree.absolute($0)) != nil }.sorted()
        guard !files.isEmpty else { return [] }
        return [SetAsideUnit(session: id, incognito: false, content: .files(files, removedLast: loadedFirst(files)))]
    }
}
