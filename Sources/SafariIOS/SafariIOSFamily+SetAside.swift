import FileSystemKit
import SessionFormats
import SessionModel

/// Safari for iOS's session is one database with the files SQLite keeps beside it: one entry
/// holds them together, the database removed last.
extension SafariIOSFamily {
    /// The session id a Safari profile's entries carry.
    public static let setAsideSession: SessionID = "browser-state"

    /// `BrowserState.db` with its `-wal` and `-shm` there are, in one unit. Safari keeps its
    /// private tabs in the same database: there is no private side to set aside apart.
    public func setAsideUnits(_ input: LocatedInput, session: SessionID?, incognito: Bool) throws(FileSystemError) -> [SetAsideUnit] {
        guard !incognito, session == nil || session == Self.setAsideSession else { return [] }
        let files = input.sessions.flatMap { SafariIOSLayout.files(database: $0.path, tree: input.tree) }.filter {
            input.tree.fileSystem.kind(of: input.tree.absolute($0)) != nil
        }
        guard !files.isEmpty else { return [] }
        return [
            SetAsideUnit(
                session: Self.setAsideSession, incognito: false,
                content: .files(files.sorted(), removedLast: files.filter { lastPathComponent($0) == SafariIOSLayout.databaseFile }))
        ]
    }

    public var setAsideRoots: Set<String> {
        Set([SafariIOSLayout.databaseFile] + SafariIOSLayout.companionSuffixes.map { SafariIOSLayout.databaseFile + $0 })
    }
}
