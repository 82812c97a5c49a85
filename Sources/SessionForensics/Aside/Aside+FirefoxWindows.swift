import FileSystemKit
import SessionFormats
import SessionModel
import SessionStore

/// `aside` on a Firefox for iOS profile, whose window is a set of files rather than a directory of
/// its own: the window file, its backup and its tabs' session states. An entry holds each file at
/// its path in the profile, with a manifest (`SessionSetAside.pushFiles`), as repair's do.
extension Aside {
    /// The names an entry's files start with when it holds Firefox for iOS profile files.
    static let firefoxEntryRoots: Set<String> = [
        FirefoxIOSLayout.profileDirectory, FirefoxIOSLayout.windowDataDirectory, FirefoxIOSLayout.backupDirectory,
        FirefoxIOSLayout.tabSessionDataDirectory
    ]

    /// The profile's Firefox for iOS input, when it is one.
    func firefoxInput() -> LocatedInput? {
        guard let input = try? InputOpener.open(profile, fileSystem: fileSystem, browser: FirefoxIOSFamily()), input.kind == .profile
        else { return nil }
        return input
    }

    /// Sets aside every window (or the window `session`) of a Firefox for iOS profile: each one's
    /// files hard-linked into an entry with a manifest, then removed from the live profile (Firefox
    /// then opens a new tab in its place). Returns the new entries.
    func pushFirefoxWindows(_ input: LocatedInput, session: SessionID?, reason: String) throws -> [AsideEntry] {
        let read = InputRead(input, depth: .histories)
        let windows = read.sessions.filter { $0.firefoxWindow != nil && (session == nil || $0.source.id == session) }
        if let session, windows.isEmpty { throw ForensicsError.sessionNotFound(profile: profile, session: session, incognito: false) }
        var entries: [AsideEntry] = []
        for window in windows {
            guard let files = window.firefoxWindow.map(Self.liveFiles), !files.isEmpty else { continue }
            for file in files {
                try checkInsideProfile(file)
                guard fileSystem.kind(of: joinPath(profile, file)) == .file else {
                    throw ForensicsError.unsafeToMove(path: joinPath(profile, file), reason: "not a regular file")
                }
            }
            let pushed = try SessionSetAside(writer: writer, profile: profile).pushFiles(
                files, key: SessionKey(id: window.source.id, incognito: false), reason: reason, time: clock(), toolVersion: toolVersion)
            // The window file last: a push cut short leaves the window listed, and a rerun sets the rest aside.
            for file in files.reversed() { try fileSystem.unlink(joinPath(profile, file)) }
            for directory in Set(files.map { parentPath(joinPath(profile, $0)) }).sorted() { try writer.syncDirectory(directory) }
            if let entry = try entry(id: window.source.id, incognito: false, stamp: pushed.stamp) { entries.append(entry) }
        }
        return entries
    }

    /// The files of a window that are there: its file, its backup, its tabs' session states.
    static func liveFiles(_ window: FirefoxWindowRead) -> [String] {
        var files: [String] = []
        if window.main != .missing { files.append(window.mainPath) }
        if window.backup != .missing, let backup = window.backupPath { files.append(backup) }
        files += window.tabStates.filter { $0.file != .missing }.map(\.path)
        return files
    }

    /// Whether an entry of ours holds Firefox profile files, for iOS or desktop (each at its path in the profile).
    func holdsFirefoxFiles(_ entry: AsideEntry) -> Bool {
        guard entry.origin == .sessionctl else { return false }
        let names = (try? fileSystem.list(joinPath(profile, entry.path))) ?? []
        return names.contains { Self.firefoxEntryRoots.contains($0) || Self.desktopEntryRoots.contains($0) }
    }

    /// Puts the files of a Firefox entry back at their paths in the profile, each written
    /// atomically and durably from the entry's verified copy, then removes the entry (kept whole
    /// with `partial` when some file did not verify). A live file that differs is in the way
    /// unless `force`, which sets the live files aside first; one identical to the entry's (a
    /// restore cut short) is left as it is.
    func restoreFirefoxFiles(_ entry: AsideEntry, force: Bool, partial: Bool) throws -> AsideRestoreOutcome {
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
        let window =
            check.verified.first { $0.contains(FirefoxIOSLayout.windowDataDirectory + "/") }
            ?? check.verified.first { Self.desktopEntryRoots.contains($0) } ?? check.verified.first ?? ""
        return AsideRestoreOutcome(
            restored: entry, destination: window, displaced: displaced, shadowed: false, restoredFiles: check.verified,
            leftBehind: check.problems)
    }
}
