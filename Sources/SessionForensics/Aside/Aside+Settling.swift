import FileSystemKit
import SessionFormats
import SessionStore

extension Aside {
    /// Settles what interrupted sessionctl commands (and the store's writes) left in the profile,
    /// as every command that changes a profile does first, under its lock; returns what was done,
    /// one line each.
    ///
    /// - temporary files and backups of interrupted atomic writes (`TemporaryFileSweeper`), the
    ///   half-written manifests of set-aside entries among them, so that no restore carries one
    ///   into a live session;
    /// - set-asides cut short (`SessionSetAside.completeInterruptedEntries`): a missing manifest
    ///   completed, the rest of a live directory being removed removed;
    /// - entries being dropped (`.sessionctl-drop.*` in `Backups/<id>/`), removed;
    /// - copies an interrupted restore was putting together (`.sessionctl-restore.*`), removed;
    /// - an empty `.sessionctl-migration-old` a migration left, removed.
    public func settleInterrupted() throws -> [String] {
        var done = try TemporaryFileSweeper(writer: writer, profile: profile).sweep().map { "removed \($0)" }
        done += try SessionSetAside(writer: writer, profile: profile).completeInterruptedEntries()
        for incognito in [false, true] {
            let backups = joinPath(profile, SessionSetAside.backupsDirectory(incognito: incognito))
            for session in (try? fileSystem.list(backups)) ?? [] where fileSystem.kind(of: joinPath(backups, session)) == .directory {
                for name in try fileSystem.list(joinPath(backups, session)) where name.hasPrefix(Aside.droppingPrefix) {
                    try writer.removeTree(joinPath(backups, session, name))
                    done.append("removed \(joinPath(SessionSetAside.backupsDirectory(incognito: incognito), session, name)) (an interrupted drop)")
                }
            }
            for storage in [ProfileLayout.optimizedDirectory, ProfileLayout.legacyDirectory] {
                let parent = joinPath(profile, ProfileLayout.stateRoot(incognito: incognito), storage)
                for name in (try? fileSystem.list(parent)) ?? [] where name.hasPrefix(Aside.restoringPrefix) {
                    // A restore cut before its copy went live: the entry is still whole.
                    try writer.removeTree(joinPath(parent, name))
                    done.append("removed \(joinPath(ProfileLayout.stateRoot(incognito: incognito), storage, name)) (an interrupted restore's copy; the entry is still set aside)")
                }
            }
            let displaced = joinPath(profile, ProfileLayout.stateRoot(incognito: incognito), Migrator.displacedTree)
            if fileSystem.kind(of: displaced) == .directory, try fileSystem.list(displaced).isEmpty {
                try fileSystem.rmdir(displaced)
                try fileSystem.fsyncDirectory(parentPath(displaced))
                done.append("removed \(joinPath(ProfileLayout.stateRoot(incognito: incognito), Migrator.displacedTree)) (empty, left by an interrupted migration)")
            }
        }
        return done
    }
}
