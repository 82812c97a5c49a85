import Archive
import FileSystemKit
import SessionFormats
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
