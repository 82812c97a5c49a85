import FileSystemKit
import SessionFormats
import SessionModel
import SessionStore

/// What `Aside.restore` did.
public struct AsideRestoreOutcome: Sendable, Equatable {
    /// The entry that was moved back (it no longer exists).
    public var restored: AsideEntry
    /// Where it went, relative to the profile.
    public var destination: String
    /// The live session that was set aside first (with `force`).
    public var displaced: AsideEntry?
    /// True when a legacy session was restored into a profile whose `SessionStorage/` Chrome reads instead.
    public var shadowed: Bool
    /// The files restored (relative to the entry).
    public var restoredFiles: [String] = []
    /// What a partial restore left in the entry, with why (empty for a whole restore).
    public var leftBehind: [AsideEntryCheck.Problem] = []
}

extension Aside {
    /// Moves an entry back into place, after which it leaves the list. A live session in the way
    /// is an error (`ForensicsError.liveSessionInTheWay`) unless `force`, which sets it aside first.
    ///
    /// The entry is read back and verified first (`check`): one that does not verify is refused
    /// (`ForensicsError.entryDamaged`) unless `partial`, which restores only the files that read
    /// and verify, leaves the entry whole where it is, and is refused too when none does.
    public func restore(_ name: String, force: Bool, partial: Bool = false) throws -> AsideRestoreOutcome {
        let entry = try find(name)
        if let family = try filesFamily(entry) { return try restoreFiles(entry, of: family, force: force, partial: partial) }
        let root = ProfileLayout.stateRoot(incognito: entry.incognito)
        let source = joinPath(profile, entry.path)
        if entry.origin == .sessionctl {
            // A window of Chrome for iOS holds its list or a tab: an entry with neither (another
            // browser's files under doctored names) is no session to put into SessionStorage/.
            let names = (try? fileSystem.list(source)) ?? []
            let holdsWindow = names.contains { name in
                name == ProfileLayout.metadataFile || name == ProfileLayout.legacySessionFile
                    || (Tab.id(fromDirectoryName: name) != nil && fileSystem.kind(of: joinPath(source, name)) == .directory)
            }
            guard holdsWindow else {
                throw ForensicsError.entryDamaged(
                    entry: entry.name,
                    reason:
                        "it holds no Chrome for iOS window (no \(ProfileLayout.metadataFile), \(ProfileLayout.legacySessionFile) or tab directory) and no other browser's session files; nothing was restored"
                )
            }
        }
        let legacy =
            entry.origin == .chrome
            || fileSystem.kind(of: joinPath(source, ProfileLayout.legacySessionFile)) == .file
        let destination = joinPath(root, legacy ? ProfileLayout.legacyDirectory : ProfileLayout.optimizedDirectory, entry.session)
        // Nothing moves through a symbolic link out of the profile, on either side.
        try checkInsideProfile(destination)
        try checkInsideProfile(entry.path)
        var displaced: AsideEntry?
        let backupsOfSession = parentPath(source)
        let mode = (fileSystem.permissions(of: backupsOfSession) ?? 0o700) & 0o777
        if fileSystem.kind(of: joinPath(profile, destination)) != nil {
            if entry.origin == .sessionctl, !force, try isRestored(source, at: joinPath(profile, destination)) {
                // An earlier restore put it in place and was cut before removing the entry.
                try SessionSetAside(writer: writer, profile: profile).removeEntry(entry.path)
                try removeIfEmpty(backupsOfSession)
                try removeIfEmpty(parentPath(backupsOfSession))
                return AsideRestoreOutcome(restored: entry, destination: destination, displaced: nil, shadowed: false)
            }
            guard force else { throw ForensicsError.liveSessionInTheWay(path: joinPath(profile, destination)) }
        }
        let check = try self.check(entry)
        if !check.isWhole {
            let first = check.problems[0]
            let more = check.problems.count > 1 ? " (and \(check.problems.count - 1) more)" : ""
            // A window without its list file is no window Chrome loads (and a later command would
            // take what was restored for the remains of a set-aside): --partial needs it whole.
            let listFile = [ProfileLayout.metadataFile, ProfileLayout.legacySessionFile].contains { check.verified.contains($0) }
            if !partial || check.verified.isEmpty || !listFile {
                let hint =
                    !partial
                    ? "--partial restores the files that verify"
                    : check.verified.isEmpty
                        ? "no file of it reads and verifies" : "its list file does not verify, so no window can be restored"
                throw ForensicsError.entryDamaged(entry: entry.name, reason: "\(first.path): \(first.reason)\(more); \(hint)")
            }
        }
        if fileSystem.kind(of: joinPath(profile, destination)) != nil {
            displaced = try push(
                entry.session, incognito: entry.incognito, directory: destination,
                reason: "live session set aside by aside restore --force of \(entry.name)")
        }
        switch entry.origin {
        case .chrome:
            try writer.makeDirectories(joinPath(profile, destination), mode: mode)
            try writer.move(source, to: joinPath(profile, destination, ProfileLayout.legacySessionFile))
        case .sessionctl:
            try SessionSetAside(writer: writer, profile: profile).restore(
                entry: entry.path, to: destination, mode: mode,
                only: check.isWhole ? nil : check.verified)
        }
        try removeIfEmpty(backupsOfSession)
        try removeIfEmpty(parentPath(backupsOfSession))
        let shadowed = legacy && fileSystem.kind(of: joinPath(profile, root, ProfileLayout.optimizedDirectory)) == .directory
        return AsideRestoreOutcome(
            restored: entry, destination: destination, displaced: displaced, shadowed: shadowed,
            restoredFiles: check.verified, leftBehind: check.problems)
    }

    /// Deletes an entry. Ours is first renamed out of the list (to a hidden name in the same
    /// directory), so an interrupted drop leaves either the whole entry or nothing listed; hidden
    /// leftovers of interrupted drops are removed by the next command on the profile (`InterruptedCommands`).
    public func drop(_ name: String) throws -> AsideEntry {
        let entry = try find(name)
        let source = joinPath(profile, entry.path)
        let backupsOfSession = parentPath(source)
        switch entry.origin {
        case .chrome:
            try fileSystem.unlink(source)
            try fileSystem.fsyncDirectory(backupsOfSession)
        case .sessionctl:
            try SessionSetAside(writer: writer, profile: profile).removeEntry(entry.path)
        }
        try removeIfEmpty(backupsOfSession)
        try removeIfEmpty(parentPath(backupsOfSession))
        return entry
    }

    /// Whether the live directory `live` holds exactly the entry's files (the manifest aside).
    private func isRestored(_ entry: String, at live: String) throws -> Bool {
        func files(_ root: String, _ relative: String) throws -> [String: [UInt8]] {
            var found: [String: [UInt8]] = [:]
            for name in try fileSystem.list(joinPath(root, relative))
            where !(relative.isEmpty && AsideManifest.isManifestOrItsTemporary(name)) {
                let path = joinPath(relative, name)
                switch fileSystem.kind(of: joinPath(root, path)) {
                case .directory?: found.merge(try files(root, path)) { first, _ in first }
                case .file?: found[path] = try fileSystem.read(joinPath(root, path))
                default: return [:]
                }
            }
            return found
        }
        let held = try files(entry, "")
        let live = try files(live, "")
        return !held.isEmpty && held == live
    }

    /// Prefix of a restored copy being put together beside its live place.
    static let restoringPrefix = SessionSetAside.restoringPrefix

    /// Prefix of an entry being dropped.
    static let droppingPrefix = SessionSetAside.droppingPrefix
}
