import FileSystemKit
import SessionForensics
import SessionFormats
import SessionModel
import SessionStore

/// `sessionctl import`: writes the sessions of a document into a profile as Chrome's files, under
/// the profile's lock, setting aside (never overwriting) the sessions it replaces.
///
/// Everything is checked before anything moves: a document that cannot be written whole sets
/// nothing aside. Every file operation goes through the `Aside`'s file system.
public struct Importer: Sendable {
    /// The profile directory (created when missing).
    public let profile: String
    /// Sets replaced sessions aside; its writer is the only way to the disk.
    public let aside: Aside

    public init(profile: String, aside: Aside) {
        self.profile = profile
        self.aside = aside
    }

    /// Imports `sessions`; with `replace`, a session already in the profile is set aside first,
    /// else it stops the import (`FileSystemError.exists`) before anything is written. A tab
    /// marked private goes to its window's incognito side (`PrivateTabSplit`).
    public func run(_ sessions: [Session], replace: Bool) throws -> ImportOutcome {
        // A window of private and regular tabs (Firefox for iOS's) as Chrome keeps them: two sides.
        let sessions = PrivateTabSplit.split(sessions)
        let importer = ProfileImporter(profile: profile, writer: ProfileWriter(writer: aside.writer))
        try importer.check(sessions, existingAllowed: true)
        // The profile exists before it is locked, and stays locked from the first look at what
        // it holds to the last write, so that no other sessionctl changes it between.
        try aside.writer.makeDirectories(profile)
        return try aside.whileLocked {
            try importer.check(sessions, existingAllowed: replace)
            // Nothing is written through a symbolic link out of the profile.
            for session in sessions {
                try aside.checkInsideProfile(ProfileLayout.sessionDirectory(session.id, incognito: session.incognito))
            }
            var setAside: [AsideEntry] = []
            for session in sessions where replace && importer.exists(session) && !importer.isImported(session) {
                setAside += try aside.push(session: session.id, incognito: session.incognito, reason: "replaced by sessionctl import")
            }
            return ImportOutcome(setAside: setAside, written: try importer.importSessions(sessions))
        }
    }
}

/// Chrome for iOS's import: a document's sessions written as Chrome's session directories
/// (`Importer`), which `sessionctl import` asks the registry for.
public struct ChromeIOSImport: SessionImport {
    public init() {}

    public var family: any BrowserFamily { ChromeIOSFamily() }

    public func run(_ sessions: [Session], aside: Aside, replace: Bool) throws -> ImportOutcome {
        try Importer(profile: aside.profile, aside: aside).run(sessions, replace: replace)
    }
}
