import FileSystemKit
import SessionFormats
import SessionModel
import SessionStore

/// `aside` on a profile whose sessions are files rather than directories of their own (Firefox
/// for iOS's windows, desktop browsers' session files): an entry holds each file of a unit
/// (`SetAsideUnit`) at its path in the profile, with a manifest (`SessionSetAside.pushFiles`), as
/// repair's do; `aside restore` writes each file back atomically.
extension Aside {
    /// Sets aside the files of `unit`: linked into an entry with a manifest, then removed from the
    /// live profile in the unit's order (what the browser loads first last). Returns the new entry.
    func pushFiles(_ unit: SetAsideUnit, reason: String) throws -> AsideEntry? {
        guard case .files(let files, _) = unit.content, !files.isEmpty else { return nil }
        try checkEntryInsideProfile(id: unit.session, incognito: unit.incognito)
        for file in files {
            try checkInsideProfile(file)
            guard fileSystem.kind(of: joinPath(profile, file)) == .file else {
                throw ForensicsError.unsafeToMove(path: joinPath(profile, file), reason: "not a regular file")
            }
        }
        let key = SessionKey(id: unit.session, incognito: unit.incognito)
        let pushed = try SessionSetAside(writer: writer, profile: profile).pushFiles(
            files, key: key, reason: reason, time: clock(), toolVersion: toolVersion)
        for file in unit.removalOrder { try fileSystem.unlink(joinPath(profile, file)) }
        for directory in Set(files.map { parentPath(joinPath(profile, $0)) }).sorted() { try writer.syncDirectory(directory) }
        return try entry(id: key.id, incognito: key.incognito, stamp: pushed.stamp)
    }

    /// The family whose session files an entry of ours holds (each at its path in the profile);
    /// nil for an entry that holds a session directory.
    ///
    /// In a profile of a family whose sessions are files, every entry is that family's: one that
    /// holds none of its session files (a doctored entry) is refused, never restored as another
    /// browser's session. Elsewhere the entry's names tell.
    func filesFamily(_ entry: AsideEntry) throws -> (any BrowserFamily)? {
        guard entry.origin == .sessionctl else { return nil }
        let names = (try? fileSystem.list(joinPath(profile, entry.path))) ?? []
        let family = located().family
        guard !family.setAsideRoots.isEmpty else { return BrowserFamilies.family(holdingEntryNames: names) }
        guard names.contains(where: family.setAsideRoots.contains) else {
            throw ForensicsError.entryDamaged(
                entry: entry.name,
                reason:
                    "it holds none of \(family.displayName)'s session files (\(family.setAsideRoots.sorted().joined(separator: ", "))); nothing was restored"
            )
        }
        return family
    }

    /// Puts the files of an entry of `family`'s files back at their paths in the profile, each
    /// written atomically and durably from the entry's verified copy, then removes the entry (kept
    /// whole with `partial` when some file did not verify). A live file that differs is in the way
    /// unless `force`, which sets the live files aside first; one identical to the entry's (a
    /// restore cut short) is left as it is.
    func restoreFiles(_ entry: AsideEntry, of family: any BrowserFamily, force: Bool, partial: Bool) throws -> AsideRestoreOutcome {
        let check = try self.check(entry)
        if !check.isWhole, !partial || check.verified.isEmpty {
            let first = check.problems[0]
            let hint = !partial ? "--partial restores the files that verify" : "no file of it reads and verifies"
            throw ForensicsError.entryDamaged(entry: entry.name, reason: "\(first.path): \(first.reason); \(hint)")
        }
        let source = joinPath(profile, entry.path)
        // What a restore cut short left in the directories it writes into goes first.
        _ = try FileRewriteExecutor(aside: self).sweep(
            directories: Set(check.verified.map { parentPath($0) }).filter { $0 != "." }.sorted())
        var pending: [(file: String, bytes: [UInt8])] = []
        var inTheWay: [String] = []
        for file in check.verified where file != AsideManifest.fileName {
            // Only the family's session files go back: a manifest that names another path is doctored.
            guard let root = pathComponents(file).first, family.setAsideRoots.contains(String(root)) else {
                throw ForensicsError.entryDamaged(
                    entry: entry.name, reason: "\(file): not one of \(family.displayName)'s session files; nothing was restored")
            }
            try checkInsideProfile(file)
            let bytes = try fileSystem.read(joinPath(source, file))
            let live = joinPath(profile, file)
            if let kind = fileSystem.kind(of: live) {
                if kind == .file, (try? fileSystem.read(live)) == bytes { continue }
                guard kind == .file else { throw ForensicsError.unsafeToMove(path: live, reason: "not a regular file") }
                inTheWay.append(file)
            }
            pending.append((file, bytes))
        }
        var displaced: AsideEntry?
        if !inTheWay.isEmpty {
            guard force else { throw ForensicsError.liveSessionInTheWay(path: joinPath(profile, inTheWay[0])) }
            try checkEntryInsideProfile(id: entry.session, incognito: false)
            let pushed = try SessionSetAside(writer: writer, profile: profile).pushFiles(
                inTheWay, key: SessionKey(id: entry.session, incognito: false),
                reason: "live files set aside by aside restore --force of \(entry.name)", time: clock(), toolVersion: toolVersion)
            displaced = try self.entry(id: entry.session, incognito: false, stamp: pushed.stamp)
        }
        for (file, bytes) in pending {
            let live = joinPath(profile, file)
            try writer.makeDirectories(parentPath(live))
            try writer.write(bytes, to: live)
        }
        if check.isWhole {
            try SessionSetAside(writer: writer, profile: profile).removeEntry(entry.path)
            try removeIfEmpty(parentPath(source))
            try removeIfEmpty(parentPath(parentPath(source)))
        }
        let files = check.verified.filter { $0 != AsideManifest.fileName }
        return AsideRestoreOutcome(
            restored: entry, destination: family.loadedFirst(of: files).first ?? files.first ?? "", displaced: displaced,
            shadowed: false, restoredFiles: check.verified, leftBehind: check.problems)
    }
}
