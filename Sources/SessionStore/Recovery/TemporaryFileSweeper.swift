@_spi(CrashTesting) import FileSystemKit
import SessionFormats

/// Finishes what an interrupted `AtomicWriter` left behind: puts back a replaced file whose
/// replacement was torn away (its backup exists, the file does not), then removes backups and
/// temporary files, and nothing else.
///
/// Looks where the store and sessionctl write: the profile directory, `SessionStorage/` and
/// `Sessions/` (where a set-aside session directory leaves under a temporary name), each session directory
/// and its tab directories, on both sides, each session's `Backups/<id>/` (where a set-aside copy
/// is put together under a temporary name) and the set-aside entries. Only names for which
/// `AtomicWriter.isTemporaryName` or `isBackupName` holds are touched; a temporary directory
/// (an incognito side being purged) is removed whole, without an fsync of each of its own
/// directories (a crash midway leaves a smaller one under the same name, for the next sweep);
/// each directory the sweep removes something from is fsynced. Below a session directory, or one
/// session's `Backups/`, only the directories the file system lists as holding such a name
/// (`FileSystemHooks.directories(below:holdingNamesStartingWith:)`, asked for `names`, the very
/// names it removes) are walked, when it knows them. It is asked
/// once for the whole profile: when no directory holds such a name nothing is walked, and the
/// directories of `SessionStorage/` and `Backups/` are found from that answer unless the group
/// directory itself holds one (then they are listed and asked about one by one).
public struct TemporaryFileSweeper: Sendable {
    /// Removes through its file system.
    public let writer: AtomicWriter
    /// The profile directory.
    public let profile: String

    public init(writer: AtomicWriter, profile: String) {
        self.writer = writer
        self.profile = profile
    }

    /// The writer's temporary and backup names: all the sweep removes, and all it asks the file
    /// system about.
    @_spi(CrashTesting) public static let leftoverNames = NamePrefixes([AtomicWriter.temporaryPrefix, AtomicWriter.backupPrefix])

    /// The names this sweep removes (under the planted `broad-sweep` protocol, every name that
    /// begins with `AtomicWriter.reservedPrefix`, what other tools stage and record included).
    var names: NamePrefixes {
        writer.writeProtocol == .broadSweep ? NamePrefixes([AtomicWriter.reservedPrefix]) : TemporaryFileSweeper.leftoverNames
    }

    /// Removes the leftovers; returns their paths relative to the profile.
    public func sweep() throws(FileSystemError) -> [String] {
        var removed: [String] = []
        // What the file system knows of the whole profile: nothing to do when no directory holds
        // a leftover name, and a directory that holds none itself is not swept.
        let names = self.names
        let hooks = writer.fileSystem.hooks
        let everywhere = hooks?.directories(below: profile, holdingNamesStartingWith: names)
        if let everywhere, everywhere.isEmpty { return removed }
        func mayHold(_ relative: String) -> Bool { everywhere?.contains(joinPath(profile, relative)) ?? true }
        for incognito in [false, true] {
            let root = ProfileLayout.stateRoot(incognito: incognito)
            let storage = joinPath(root, ProfileLayout.optimizedDirectory)
            for directory in [root, storage, joinPath(root, ProfileLayout.legacyDirectory)] where mayHold(directory) {
                try sweepDirectory(directory, &removed)
            }
            // A session directory with its tab directories; one session's Backups/ with its entries.
            for group in [storage, SessionSetAside.backupsDirectory(incognito: incognito)] {
                if let everywhere, !mayHold(group) {
                    // What lies below each of the group's directories is known already (a group
                    // that holds a leftover name itself may hold one named like a directory
                    // below which nothing is known: it is listed).
                    for parent in parents(below: group, holding: everywhere) {
                        let path = joinPath(profile, parent)
                        // Compared byte for byte: names equal only as Unicode text are distinct directories.
                        let below = Array((path + "/").utf8)
                        try sweepParent(
                            parent, known: everywhere.filter { $0.utf8.elementsEqual(path.utf8) || $0.utf8.starts(with: below) },
                            &removed)
                    }
                } else {
                    for parent in subdirectories(group) {
                        try sweepParent(
                            parent, known: hooks?.directories(below: joinPath(profile, parent), holdingNamesStartingWith: names),
                            &removed)
                    }
                }
            }
        }
        return removed
    }

    /// Sweeps `parent` and those of its subdirectories that `known` (the directories at or
    /// below it holding leftover names, when known) lists, or all of them.
    private func sweepParent(_ parent: String, known: [String]?, _ removed: inout [String]) throws(FileSystemError) {
        let path = joinPath(profile, parent)
        if known?.contains(path) ?? true { try sweepDirectory(parent, isDirectory: true, &removed) }
        let children =
            known.map { known in
                sortedByBytes(known.filter { parentPath($0) == path }.map { joinPath(parent, lastPathComponent($0)) })
            } ?? subdirectories(parent)
        for child in children { try sweepDirectory(child, isDirectory: true, &removed) }
    }

    /// The subdirectories of `group` (relative to the profile) at or below which one of
    /// `everywhere` (full paths) lies, sorted by name as `subdirectories` lists them.
    private func parents(below group: String, holding everywhere: [String]) -> [String] {
        let prefix = Array((joinPath(profile, group) + "/").utf8)
        // Kept as bytes: two names equal only as Unicode text are two directories.
        var names: Set<[UInt8]> = []
        for directory in everywhere where directory.utf8.starts(with: prefix) {
            names.insert(Array(directory.utf8.dropFirst(prefix.count).prefix { $0 != UInt8(ascii: "/") }))
        }
        return sortedByBytes(names.map { String(decoding: $0, as: UTF8.self) }).map { joinPath(group, $0) }
    }

    private func subdirectories(_ relative: String) -> [String] {
        let path = joinPath(profile, relative)
        guard writer.fileSystem.kind(of: path) == .directory, let entries = try? writer.fileSystem.entries(of: path) else { return [] }
        return entries.filter { $0.kind == .directory }.map { joinPath(relative, $0.name) }
    }

    /// Sweeps one directory; `isDirectory` when the caller has just seen that it is one (a
    /// session of ten thousand tabs is then not asked about twice per tab).
    private func sweepDirectory(_ relative: String, isDirectory: Bool = false, _ removed: inout [String]) throws(FileSystemError) {
        let path = joinPath(profile, relative)
        guard isDirectory || writer.fileSystem.kind(of: path) == .directory else { return }
        let entries = try writer.fileSystem.entries(of: path)
        var present: Set<String>?
        var restored = false
        for entry in entries where AtomicWriter.isBackupName(entry.name) && entry.kind == .file {
            let target = String(entry.name.dropFirst(AtomicWriter.backupPrefix.count))
            let names = present ?? Set(entries.map(\.name))
            present = names
            guard !target.isEmpty, !names.contains(target) else { continue }
            try writer.fileSystem.link(joinPath(path, entry.name), to: joinPath(path, target))
            restored = true
        }
        if restored && writer.writeProtocol != .unsyncedSweep { try writer.fileSystem.fsyncDirectory(path) }
        var any = false
        let names = self.names
        for entry in entries where names.matches(entry.name) {
            let name = entry.name
            switch entry.kind {
            case .file:
                try writer.fileSystem.unlink(joinPath(path, name))
            case .directory:
                try writer.removeTree(joinPath(path, name), syncParent: false, syncEachDirectory: false)
            default:
                continue
            }
            removed.append(joinPath(relative, name))
            any = true
        }
        if any { try writer.fileSystem.fsyncDirectory(path) }
    }
}
