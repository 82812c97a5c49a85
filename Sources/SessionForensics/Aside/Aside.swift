import SessionFormats
import SessionModel
import SessionStore

#if canImport(Glibc)
    import FileSystemKit
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Sets sessions aside in a profile and brings them back: `aside push`, `list`, `restore`, `drop`.
///
/// Pushing is the store's `SessionSetAside`: a live session directory is moved by rename to
/// `<profile>/Backups/<SessionID>/<UTC stamp>/` (incognito: `<profile>/OTR/Backups/...`), both
/// parents fsynced, then `manifest.json` is written into the entry with the `AtomicWriter`; only
/// then is the push complete. A rename is atomic, so
/// an interruption at any point leaves the session either live or set aside, never lost; an entry
/// whose manifest is missing is still listed and restorable. Directories created under `Backups/`
/// get the session directory's permissions, never wider ones. Every file operation goes through
/// the writer's `FileSystem`.
public struct Aside: Sendable {
    /// The profile directory.
    public let profile: String
    public let writer: AtomicWriter
    /// Recorded in each manifest.
    public let toolVersion: String
    package let clock: @Sendable () -> Timestamp

    public init(
        profile: String, writer: AtomicWriter = AtomicWriter(), toolVersion: String,
        clock: @escaping @Sendable () -> Timestamp = Aside.systemTime
    ) {
        self.profile = profile
        self.writer = writer
        self.toolVersion = toolVersion
        self.clock = clock
    }

    /// The file system every read and write of the action goes through.
    public var fileSystem: any FileSystem { writer.fileSystem }

    /// Runs `body` holding the profile's lock, taken through the file system before `body` reads
    /// anything; a second writer meanwhile gets `FileSystemError.locked` (exit status 75). Unless
    /// `settling` is false, what interrupted commands left is settled first (`settleInterrupted`).
    public func whileLocked<Result>(settling: Bool = true, _ body: () throws -> Result) throws -> Result {
        let lock = try ProfileLock.acquire(profile: profile, fileSystem: fileSystem)
        return try withExtendedLifetime(lock) {
            if settling { _ = try settleInterrupted() }
            return try body()
        }
    }

    /// The current time from the system clock.
    public static func systemTime() -> Timestamp {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Timestamp(unixMicroseconds: Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000)
    }

    /// Sets aside the live session `session` of the given kind, or without a session id every
    /// live session of that kind (as Chrome's crash helper did); returns the new entries.
    public func push(session: SessionID?, incognito: Bool, reason: String) throws -> [AsideEntry] {
        let (family, input) = located()
        // A session id names a directory only where sessions are directories.
        if let session, family.setAsideRoots.isEmpty { try AsideEntry.validateSessionID(session) }
        let units = try family.setAsideUnits(input, session: session, incognito: incognito)
        // A family whose sessions are files keeps no private side on disk: nothing to set aside there.
        let privateSideKept = family.setAsideRoots.isEmpty
        if let session, units.isEmpty, privateSideKept || !incognito {
            throw ForensicsError.sessionNotFound(profile: profile, session: session, incognito: incognito)
        }
        var entries: [AsideEntry] = []
        for unit in units {
            switch unit.content {
            case .directory(let directory):
                entries.append(try push(unit.session, incognito: unit.incognito, directory: directory, reason: reason))
            case .files:
                if let entry = try pushFiles(unit, reason: reason) { entries.append(entry) }
            }
        }
        return entries
    }

    /// The family whose layout the profile follows, and the profile as located by it: the family
    /// that recognises it, or the one whose layout places it when it holds no session yet (a
    /// profile with only set-aside entries); a profile of no family's layout has no family.
    func located() -> (family: any BrowserFamily, input: LocatedInput) {
        if let input = try? InputOpener.open(profile, fileSystem: fileSystem), input.kind == .profile {
            return (BrowserFamilies.family(of: input), input)
        }
        let family: any BrowserFamily =
            BrowserFamilies.all.first { $0.place(of: profile, fileSystem: fileSystem) != nil } ?? UnrecognisedFamily()
        var input = LocatedInput(tree: ReadableTree(fileSystem: fileSystem, root: profile), kind: .profile, sessions: [])
        input.family = family
        return (family, input)
    }

    /// Refuses to move `directory` (relative to the profile) when a component of its path, or of
    /// the path of its set-aside entry, is a symbolic link or a special file (the move and the
    /// manifest would act outside the profile), or when a file in it cannot be read (its manifest
    /// could not be written after the move): checked before anything moves. Reads each file once
    /// (a set-aside costs that read anyway) and returns the directory's `ContentDigest`.
    @discardableResult
    func checkMovable(_ directory: String, held: [String: [UInt8]] = [:]) throws -> String {
        try checkInsideProfile(directory)
        // Where the set-aside copy goes must be inside the profile too: Backups/ and Backups/<id>/.
        let incognito = pathComponents(directory).first == ProfileLayout.incognitoDirectory
        if let id = pathComponents(directory).last {
            try checkEntryInsideProfile(id: String(id), incognito: incognito)
        } else {
            try checkInsideProfile(SessionSetAside.backupsDirectory(incognito: incognito))
        }
        var files: [(path: String, digest: FileDigest)] = []
        try checkReadable(joinPath(profile, directory), relative: "", held: held, heldPrefix: directory, into: &files)
        return ContentDigest.of(files)
    }

    /// Refuses to set a session aside under `Backups/<id>/` (or `OTR/Backups/<id>/`) when
    /// `Backups/` or `Backups/<id>` is a symbolic link or a special file: the entry, originals
    /// included, would be written outside the profile. Every family's set-asides are checked so.
    func checkEntryInsideProfile(id: String, incognito: Bool) throws {
        let backups = SessionSetAside.backupsDirectory(incognito: incognito)
        try checkInsideProfile(backups)
        try checkInsideProfile(joinPath(backups, id))
    }

    /// Refuses a path below the profile (relative to it) when a component that exists is a
    /// symbolic link or a special file: what is written or moved there would leave the profile.
    package func checkInsideProfile(_ relative: String) throws {
        var path = profile
        for component in pathComponents(relative) {
            path = joinPath(path, component)
            if fileSystem.kind(of: path) == .other {
                throw ForensicsError.unsafeToMove(
                    path: path,
                    reason:
                        "it is a symbolic link or a special file; sessionctl moves nothing out of a profile (move the real directory into the profile first)"
                )
            }
        }
    }

    /// Reads every file below `root` (at `relative`), refusing what cannot be read or is not a
    /// file or directory; the digests of the files a set-aside copies go into `files`.
    ///
    /// `held` gives the bytes of files already read (by path in the profile: `heldPrefix/relative`).
    private func checkReadable(
        _ root: String, relative: String, held: [String: [UInt8]] = [:], heldPrefix: String = "",
        into files: inout [(path: String, digest: FileDigest)]
    ) throws {
        let path = relative.isEmpty ? root : joinPath(root, relative)
        switch fileSystem.kind(of: path) {
        case .directory:
            for name in try fileSystem.list(path) {
                if ContentDigest.isLeftOut(name) { continue }
                try checkReadable(
                    root, relative: relative.isEmpty ? name : joinPath(relative, name), held: held, heldPrefix: heldPrefix, into: &files)
            }
        case .file:
            let bytes: [UInt8]
            do throws(FileSystemError) {
                if let known = held[joinPath(heldPrefix, relative)] { bytes = known } else { bytes = try fileSystem.read(path) }
            } catch .tooLarge(_, let size, let limit) {
                throw ForensicsError.unsafeToMove(
                    path: path,
                    reason:
                        "it is \(size) bytes, larger than any session file (limit \(limit)), so its set-aside copy could not be checked; move it out of the session directory and run again"
                )
            } catch .notRegularFile {
                throw ForensicsError.unsafeToMove(path: path, reason: "it is a symbolic link or a special file inside a session directory")
            } catch {
                throw ForensicsError.unsafeToMove(
                    path: path,
                    reason:
                        "it cannot be read (\(error.reason)), so its set-aside copy could not be checked; fix its permissions and run again"
                )
            }
            if relative != SessionSetAside.manifestFile { files.append((relative, FileDigest(of: bytes))) }
        case .other:
            throw ForensicsError.unsafeToMove(path: path, reason: "it is a symbolic link or a special file inside a session directory")
        case nil:
            return
        }
    }

    /// The ids of the live sessions of one kind.
    public func liveSessionIDs(incognito: Bool) throws -> [SessionID] {
        try liveSessions(incognito: incognito).map(\.id)
    }

    /// The live sessions of one kind that the profile's family sets aside as directories (in the
    /// format its browser would load), in its order.
    func liveSessions(incognito: Bool) throws(FileSystemError) -> [(id: SessionID, directory: String)] {
        let (family, input) = located()
        return try family.setAsideUnits(input, session: nil, incognito: incognito).compactMap { unit in
            guard case .directory(let directory) = unit.content else { return nil }
            return (unit.session, directory)
        }
    }

    /// Moves one live session directory aside and writes its manifest (see `SessionSetAside`),
    /// after checking that it is safe to move (`checkMovable`).
    func push(_ id: SessionID, incognito: Bool, directory: String, reason: String) throws -> AsideEntry {
        try checkMovable(directory)
        let made = try SessionSetAside(writer: writer, profile: profile)
            .push(
                SessionKey(id: id, incognito: incognito), reason: reason, time: clock(), directory: directory, toolVersion: toolVersion,
                method: .linkCopy)
        guard let entry = try entry(id: id, incognito: incognito, stamp: made.stamp) else {
            throw FileSystemError.io(operation: "set aside", path: joinPath(profile, made.path), code: 0, reason: "the entry vanished")
        }
        return entry
    }
}
