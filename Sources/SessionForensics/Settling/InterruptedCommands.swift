import FileSystemKit
import SessionFormats
import SessionStore

/// Finishes or undoes what interrupted sessionctl commands left in a profile: run by every
/// command that changes a profile, under its lock, and by the store's launch when it is given
/// `InterruptedCommandSettling`, before either reads a session (the store's own interrupted
/// writes are `TemporaryFileSweeper`'s and `SessionSetAside.completeInterruptedEntries`'s, which
/// run first). The store knows none of the names below: they are sessionctl's.
///
/// - a repair staged beside its live place (`.sessionctl-repair.<id>`): removed when the live
///   directory is there (the original is untouched), renamed into place when it is not and the
///   staged list file, written last, is there (the original is set aside);
/// - a directory the repair's intent record (`RepairIntent`) names that is neither live nor
///   staged: the newest set-aside entry holding what the record says it held is put back
///   (never another entry); then the record is removed;
/// - entries being dropped (`Backups/<id>/.sessionctl-drop.*`), copies a restore was putting
///   together (`.sessionctl-restore.*`), sessions an import was staging (`.sessionctl-import.*`)
///   and an empty `.sessionctl-migration-old`: removed.
public struct InterruptedCommands: Sendable {
    /// Prefix of a repaired session directory staged beside its live place.
    public static let repairStagingPrefix = ".sessionctl-repair."
    /// Prefix of a session directory `sessionctl import` is writing (a name no browser loads).
    public static let importStagingPrefix = ".sessionctl-import."
    /// The directory a migration moves the old tree into (relative to a side of the profile).
    public static let displacedTree = ".sessionctl-migration-old"
    /// Prefix of every name a sessionctl command gives to something it is putting together: the
    /// store's reserved prefix, which its launch never restores as a session.
    public static let commandPrefix = AtomicWriter.reservedPrefix

    /// Every removal and rename goes through it.
    public let writer: AtomicWriter
    /// The profile directory.
    public let profile: String
    /// Where the commands stage what they put together in the profile.
    public let layout: StagingLayout

    /// Settles `profile` through `writer`, looking where `layout` says (by default where any
    /// registered family's commands stage: a command cut short may leave a profile its family
    /// no longer recognises).
    public init(writer: AtomicWriter, profile: String, layout: StagingLayout = .registered) {
        self.writer = writer
        self.profile = profile
        self.layout = layout
    }

    /// What was settled.
    public enum Step: Sendable, Equatable {
        /// A staged repair went into its empty place (`directory`, relative to the profile).
        case finishedRepair(directory: String)
        /// A staged repair was removed (its path, relative to the profile).
        case removedUnfinished(path: String)
        /// Something else, said in a line.
        case settled(String)

        /// The step in a line.
        public var description: String {
            switch self {
            case .finishedRepair(let directory): return "finished an interrupted repair of \(directory)"
            case .removedUnfinished(let path): return "removed \(path) (an unfinished repair; the original is untouched)"
            case .settled(let line): return line
            }
        }
    }

    /// Where the repair of `directory` (relative to the profile) is staged: beside it.
    public static func repairStagingPath(of directory: String) -> String {
        let parent = parentPath(directory)
        let name = repairStagingPrefix + lastPathComponent(directory)
        return parent.isEmpty ? name : joinPath(parent, name)
    }

    /// Settles everything listed above, in that order; returns what was done.
    public func settle() throws(FileSystemError) -> [Step] {
        var steps: [Step] = try removeLeftovers().map { .settled($0) }
        steps += try settleRepairs()
        return steps
    }

    /// Settles staged repairs and the repair's intent record.
    public func settleRepairs() throws(FileSystemError) -> [Step] {
        var steps: [Step] = []
        for staged in stagedRepairs() {
            let name = String(lastPathComponent(staged).dropFirst(InterruptedCommands.repairStagingPrefix.count))
            if let step = try settleRepair(of: joinPath(parentPath(staged), name)) { steps.append(step) }
        }
        if let intent = RepairIntent.read(writer, profile: profile) {
            let setAside = SessionSetAside(writer: writer, profile: profile)
            for directory in intent.directories
            where isSessionDirectory(directory) && writer.fileSystem.kind(of: joinPath(profile, directory)) == nil {
                // Only the entry the repair made: the one holding what the record says the
                // directory held, never another entry of the session.
                guard let expected = intent.contents[directory] else {
                    steps.append(.settled("\(directory) not restored: the repair's record names no content to match (see aside list)"))
                    continue
                }
                guard
                    let entry = setAside.entries(of: directory).reversed().first(where: { entry in
                        ContentDigest.ofEntry(joinPath(profile, entry), fileSystem: writer.fileSystem) == expected
                    })
                else {
                    steps.append(.settled("\(directory) not restored: no set-aside entry holds what the interrupted repair set aside"))
                    continue
                }
                let mode = (writer.fileSystem.permissions(of: parentPath(joinPath(profile, entry))) ?? 0o700) & 0o777
                try setAside.restore(entry: entry, to: directory, mode: mode)
                steps.append(
                    .settled(
                        "\(entry) restored to \(directory) (an interrupted repair had set it aside without putting the repaired copy in place)"
                    ))
            }
            try RepairIntent.remove(writer, profile: profile)
        }
        return steps
    }

    /// Whether `directory` (from an intent record, which may come with a profile from anywhere) is
    /// a session directory of the profile: an entry with a plain name of one of the layout's
    /// session parents (Chrome for iOS: `[OTR/]SessionStorage/<name>`, `[OTR/]Sessions/<name>`),
    /// every directory on the way a real one (no symbolic link). Nothing is put back anywhere else.
    func isSessionDirectory(_ directory: String) -> Bool {
        let parts = pathComponents(directory)
        guard let name = parts.last, name != ".", name != "..", !name.hasPrefix(InterruptedCommands.commandPrefix),
            layout.sessionParents.contains(parts.dropLast().joined(separator: "/"))
        else { return false }
        var path = profile
        for part in parts.dropLast() {
            path = joinPath(path, part)
            guard writer.fileSystem.kind(of: path) == .directory else { return false }
        }
        return true
    }

    /// The staged repairs of the profile, relative to it (read only).
    public func stagedRepairs() -> [String] {
        var found: [String] = []
        for parent in storageDirectories() {
            guard let names = try? writer.fileSystem.list(joinPath(profile, parent)) else { continue }
            found += names.filter { name in
                name.hasPrefix(InterruptedCommands.repairStagingPrefix)
                    && writer.fileSystem.kind(of: joinPath(profile, parent, name)) == .directory
            }.map { joinPath(parent, $0) }
        }
        return found
    }

    /// Settles the staged repair of `directory` (relative to the profile), if there is one.
    public func settleRepair(of directory: String) throws(FileSystemError) -> Step? {
        let live = joinPath(profile, directory)
        let stagedPath = InterruptedCommands.repairStagingPath(of: directory)
        let staging = joinPath(profile, stagedPath)
        guard writer.fileSystem.kind(of: staging) == .directory else { return nil }
        // Complete only when its list file, written last, is there (else: cut short, or the live
        // directory went away for another reason while a partial copy lay beside it).
        let complete = layout.completionFiles.contains { name in
            writer.fileSystem.kind(of: joinPath(staging, name)) == .file
        }
        if writer.fileSystem.kind(of: live) == nil && complete {
            try writer.move(staging, to: live)
            return .finishedRepair(directory: directory)
        }
        try writer.removeTree(staging)
        return .removedUnfinished(path: stagedPath)
    }

    /// Removes drops, restores and imports cut short, and an empty displaced tree; one line each.
    public func removeLeftovers() throws(FileSystemError) -> [String] {
        let fileSystem = writer.fileSystem
        var done: [String] = []
        for incognito in [false, true] {
            let backups = SessionSetAside.backupsDirectory(incognito: incognito)
            for session in (try? fileSystem.list(joinPath(profile, backups))) ?? []
            where fileSystem.kind(of: joinPath(profile, backups, session)) == .directory {
                for name in try fileSystem.list(joinPath(profile, backups, session)) where name.hasPrefix(SessionSetAside.droppingPrefix) {
                    try writer.removeTree(joinPath(profile, backups, session, name))
                    done.append("removed \(joinPath(backups, session, name)) (an interrupted drop)")
                }
            }
        }
        for parent in layout.displacedTreeParents {
            let displaced = joinPath(parent, InterruptedCommands.displacedTree)
            if fileSystem.kind(of: joinPath(profile, displaced)) == .directory, try fileSystem.list(joinPath(profile, displaced)).isEmpty {
                try fileSystem.rmdir(joinPath(profile, displaced))
                try fileSystem.fsyncDirectory(parentPath(joinPath(profile, displaced)))
                done.append("removed \(displaced) (empty, left by an interrupted migration)")
            }
        }
        for parent in storageDirectories() {
            for name in (try? fileSystem.list(joinPath(profile, parent))) ?? [] {
                if name.hasPrefix(SessionSetAside.restoringPrefix) {
                    try writer.removeTree(joinPath(profile, parent, name))
                    done.append("removed \(joinPath(parent, name)) (an interrupted restore's copy; the entry is still set aside)")
                } else if name.hasPrefix(InterruptedCommands.importStagingPrefix) {
                    try writer.removeTree(joinPath(profile, parent, name))
                    done.append("removed \(joinPath(parent, name)) (an interrupted import's copy)")
                }
            }
        }
        return done
    }

    /// The layout's session parents that exist, relative to the profile.
    private func storageDirectories() -> [String] {
        layout.sessionParents.filter { writer.fileSystem.kind(of: joinPath(profile, $0)) == .directory }
    }
}
