import FileSystemKit
import SessionForensics
import SessionFormats
import SessionModel
import SessionStore

// Why a crash cannot leave a side of the profile with neither format live, nor with both.
//
// Chrome decides the live format of a side by one name (docs/chrome-ios-format.md, where sessions
// live): `SessionStorage/` present means optimized, and only without it does `Sessions/` count. The
// one atomic step the file system offers is a rename, so the switch from one format to the other is
// exactly one rename of `SessionStorage` (into place for --to optimized, out of the way for --to
// legacy), and the tree of the new format must be complete and durable on disk before it. Every
// rename of the switch stays within the side's root directory, so that it is a single directory
// update even for a file system that could split a rename between two directories.
//
//   1. The new tree is written under `<root>/.sessionctl-migration-new`, a name Chrome never
//      reads: every file through the AtomicWriter (temp, fsync, rename, directory fsync), every
//      directory made durable in its parent, then the root fsynced. A crash here leaves the old
//      format live and untouched; the next run removes the half-written tree.
//   2. --to optimized: the new tree is renamed to `SessionStorage` (the commit) and the root is
//      fsynced. Before the rename the legacy sessions are live; after it the optimized ones are,
//      and `Sessions/` is shadowed: still on disk, ignored by Chrome.
//      --to legacy: the new tree is first renamed to `Sessions` (shadowed: `SessionStorage/` is
//      still there and still live) and the root fsynced; then `SessionStorage` is renamed to
//      `.sessionctl-migration-old` (the commit) and the root fsynced. Before that rename the
//      optimized sessions are live, after it the legacy ones.
//   3. The old tree is set aside session by session, by rename to `Backups/<id>/<UTC stamp>/`
//      with a manifest.json (SessionSetAside), never deleted. A crash part way leaves old
//      sessions shadowed (or under `.sessionctl-migration-old`), not live; the next run sets them aside.
//
// Setting the old tree aside before renaming the new one into place would open a window in which
// neither format is live: Chrome would start with empty windows, and its next save would create
// a fresh `SessionStorage/` over which the staged tree could no longer be put. Putting the new
// tree in place first, shadowed, and switching with one rename keeps exactly one format live at
// every instant; both trees are on disk together only while the old one is shadowed.
extension Migrator {
    /// Performs a plan made by `plan(to:)` on the same profile, side by side, after removing the
    /// temporary files an interrupted run left (a manifest being written, for one).
    ///
    /// A set-aside entry whose manifest an interruption kept from being written stays as it is:
    /// `aside list` shows it and `aside restore` takes it. (`SessionSetAside.completeInterruptedEntries`
    /// is not called: it removes a live session whose files all match an entry's manifest, which
    /// after a migration there and back is a live window, not a remainder.)
    public func apply(_ plan: MigrationPlan) throws(FileSystemError) -> MigrationOutcome {
        var outcome = MigrationOutcome()
        outcome.removed += try TemporaryFileSweeper(writer: writer, profile: profile).sweep()
        for side in plan.sides {
            try apply(side, target: plan.target, into: &outcome)
        }
        return outcome
    }

    private func apply(_ side: MigrationSidePlan, target: MigrationTarget, into outcome: inout MigrationOutcome) throws(FileSystemError) {
        let root = ProfileLayout.stateRoot(incognito: side.incognito)
        let new = joinPath(root, Migrator.newTree)
        let optimized = joinPath(root, ProfileLayout.optimizedDirectory)
        let legacy = joinPath(root, ProfileLayout.legacyDirectory)
        let displaced = joinPath(root, Migrator.displacedTree)

        // Leftovers of interrupted runs and shadowed legacy sessions first.
        if side.abandonedNewTree {
            try writer.removeTree(path(new))
            outcome.removed.append(new)
        }
        for id in side.displacedSessions {
            outcome.setAside.append(
                try setAside(
                    id, incognito: side.incognito, from: joinPath(displaced, id),
                    originalPath: joinPath(optimized, id), target: target))
        }
        try removeIfEmpty(displaced)
        for id in side.shadowedLegacySessions {
            outcome.setAside.append(try setAsideLegacy(id, incognito: side.incognito, target: target))
        }
        if !side.shadowedLegacySessions.isEmpty { try removeLegacyDirectoriesIfEmpty(root) }
        guard let conversion = side.conversion else { return }

        // 1. The new tree, complete and durable, beside the live one.
        try writer.makeDirectories(path(new))
        for session in conversion.sessions {
            if target == .optimized { try writeOptimized(session, in: new, root: root) } else { try writeLegacy(session, in: new) }
        }
        try fileSystem.fsyncDirectory(path(new))
        try fileSystem.fsyncDirectory(path(root))

        // 2. The switch, then 3. the old tree set aside.
        if target == .optimized {
            try rename(new, to: optimized)
            outcome.written += conversion.sessions.map { joinPath(optimized, $0.id) }
            for id in try subdirectories(legacy) {
                outcome.setAside.append(try setAsideLegacy(id, incognito: side.incognito, target: target))
            }
            try removeLegacyDirectoriesIfEmpty(root)
        } else {
            try rename(new, to: legacy)
            outcome.written += conversion.sessions.map { joinPath(legacy, $0.id, ProfileLayout.legacySessionFile) }
            try rename(optimized, to: displaced)
            for id in try subdirectories(displaced) {
                outcome.setAside.append(
                    try setAside(
                        id, incognito: side.incognito, from: joinPath(displaced, id),
                        originalPath: joinPath(optimized, id), target: target))
            }
            try removeIfEmpty(displaced)
        }
    }

    /// Writes one optimized session directory as Chrome does: each tab's data.pb (and its state.pb
    /// hard-linked from the legacy Web_Sessions file), session_metadata.pb last.
    private func writeOptimized(_ migrated: MigratedSession, in tree: String, root: String) throws(FileSystemError) {
        let directory = path(tree, migrated.id)
        try writer.makeDirectories(directory)
        for tab in migrated.session.tabs {
            guard let history = tab.history else { continue }
            let tabDirectory = joinPath(directory, Tab.directoryName(for: tab.id))
            try writer.makeDirectories(tabDirectory)
            try writer.write(ChromeProtoCodec.encodeTabData(history), to: joinPath(tabDirectory, ProfileLayout.tabDataFile))
            if let link = migrated.stateLinks.first(where: { $0.tab == tab.id }) {
                try fileSystem.link(path(link.source), to: joinPath(tabDirectory, ProfileLayout.tabStateFile))
                try fileSystem.fsyncDirectory(tabDirectory)
            }
        }
        try writer.write(ChromeProtoCodec.encodeSessionMetadata(migrated.session), to: joinPath(directory, ProfileLayout.metadataFile))
    }

    /// Writes one legacy session directory: `<id>/session.plist`.
    private func writeLegacy(_ migrated: MigratedSession, in tree: String) throws(FileSystemError) {
        guard let window = migrated.legacyWindow else { return }
        let directory = path(tree, migrated.id)
        try writer.makeDirectories(directory)
        try writer.write(LegacySessionCodec.encode(window), to: joinPath(directory, ProfileLayout.legacySessionFile))
    }

    /// Renames within the profile and makes both directory entries durable.
    private func rename(_ source: String, to destination: String) throws(FileSystemError) {
        guard fileSystem.kind(of: path(destination)) == nil else { throw .exists(path: path(destination)) }
        try fileSystem.rename(path(source), to: path(destination))
        try fileSystem.fsyncDirectory(parentPath(path(destination)))
        if parentPath(source) != parentPath(destination) { try fileSystem.fsyncDirectory(parentPath(path(source))) }
    }

    /// Sets a legacy session aside, with the `Web_Sessions/<%08u>` files of its tabs moved into it first.
    private func setAsideLegacy(_ id: SessionID, incognito: Bool, target: MigrationTarget) throws(FileSystemError) -> SetAsideEntry {
        let root = ProfileLayout.stateRoot(incognito: incognito)
        let directory = joinPath(root, ProfileLayout.legacyDirectory, id)
        let webSessions = joinPath(root, ProfileLayout.legacyWebSessionsDirectory)
        let plist = path(directory, ProfileLayout.legacySessionFile)
        let window = fileSystem.kind(of: plist) == .file ? (try? LegacySessionCodec.decodeWindow(try fileSystem.read(plist))) : nil
        for tab in window?.tabs.compactMap(\.validID) ?? [] {
            let name = LegacyWebSessions.fileName(for: tab)
            guard fileSystem.kind(of: path(webSessions, name)) == .file else { continue }
            try writer.move(path(webSessions, name), to: path(directory, ProfileLayout.legacyWebSessionsDirectory, name))
        }
        return try setAside(id, incognito: incognito, from: directory, originalPath: directory, target: target)
    }

    private func setAside(
        _ id: SessionID, incognito: Bool, from directory: String, originalPath: String,
        target: MigrationTarget
    ) throws(FileSystemError) -> SetAsideEntry {
        try SessionSetAside(writer: writer, profile: profile).push(
            SessionKey(id: id, incognito: incognito), reason: "set aside by sessionctl migrate --to \(target.rawValue)",
            time: clock(), directory: directory, toolVersion: toolVersion, originalPath: originalPath)
    }

    /// Removes `Sessions/` and `Web_Sessions/` of a side once nothing is left in them.
    private func removeLegacyDirectoriesIfEmpty(_ root: String) throws(FileSystemError) {
        try removeIfEmpty(joinPath(root, ProfileLayout.legacyDirectory))
        try removeIfEmpty(joinPath(root, ProfileLayout.legacyWebSessionsDirectory))
    }

    /// Removes an empty directory of the profile (and makes that durable); anything else stays.
    private func removeIfEmpty(_ relative: String) throws(FileSystemError) {
        guard fileSystem.kind(of: path(relative)) == .directory, try fileSystem.list(path(relative)).isEmpty else { return }
        try fileSystem.rmdir(path(relative))
        try fileSystem.fsyncDirectory(parentPath(path(relative)))
    }
}
