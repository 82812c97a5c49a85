import FileSystemKit

extension AtomicWriter {
    /// Removes a file or a whole directory tree durably: files are unlinked, each directory is
    /// fsynced once empty (unless `syncEachDirectory` is false) and then removed, and finally the
    /// parent of `path` is fsynced. Nothing happens when `path` does not exist.
    ///
    /// Used only by the save protocol (closed tabs, an emptied incognito side), on trees under a
    /// temporary name, on what recovery finds left of an interrupted set-aside, and by `aside drop`
    /// on an entry the user asked to delete, never on other user data. Trees under a temporary
    /// name and the leftovers of a set-aside are removed with `syncEachDirectory` false: what a
    /// crash leaves of them midway is found again and removed by the next launch (the sweep takes
    /// every temporary name; a partial copy or a remainder is recognised by rules a smaller one
    /// still meets).
    public func removeTree(_ path: String, syncParent: Bool = true, syncEachDirectory: Bool = true) throws(FileSystemError) {
        guard let kind = fileSystem.kind(of: path) else { return }
        try fileSystem.removeTree(path, kind: kind, syncingEachDirectory: syncEachDirectory && writeProtocol.syncsDirectories)
        if syncParent, writeProtocol.syncsDirectories { try fileSystem.fsyncDirectory(parentPath(path)) }
    }

    /// Makes `destination` (which must not exist) a copy of the directory tree at `source` made of
    /// hard links: no data is copied and `source` is untouched. Directories are created with
    /// `mode`, each fsynced once its entries are linked, then the destination's parent. Temporary
    /// files and backups are left out. Returns the files linked, as paths relative to
    /// `destination`, in the order of a walk of sorted listings.
    @discardableResult
    public func linkTree(_ source: String, to destination: String, mode: UInt32 = 0o700) throws(FileSystemError) -> [String] {
        let syncs = writeProtocol.syncsDirectories && writeProtocol != .unsyncedSetAside
        let linked = try fileSystem.linkTree(
            source, to: destination, mode: mode, syncingEachDirectory: syncs,
            leavingOut: [AtomicWriter.temporaryPrefix, AtomicWriter.backupPrefix])
        if syncs { try fileSystem.fsyncDirectory(parentPath(destination)) }
        return linked
    }

    /// Removes a directory tree so that it leaves its path at once: it is renamed to a temporary
    /// name beside it (the parent fsynced), then removed with `removeTree`. Interrupted, it never
    /// leaves a partly removed tree at `path` (a list naming tabs whose files are gone), only the
    /// temporary directory, which recovery (`TemporaryFileSweeper`) removes. The directories
    /// under the temporary name are not fsynced one by one: whatever part of them a crash leaves
    /// is removed whole by that sweep.
    public func removeTreeAtOnce(_ path: String) throws(FileSystemError) {
        guard fileSystem.kind(of: path) != nil else { return }
        let doomed = joinPath(parentPath(path), AtomicWriter.temporaryPrefix + lastPathComponent(path))
        if fileSystem.kind(of: doomed) != nil { try removeTree(doomed, syncEachDirectory: false) }
        try fileSystem.rename(path, to: doomed)
        if writeProtocol.syncsDirectories { try fileSystem.fsyncDirectory(parentPath(path)) }
        try removeTree(doomed, syncEachDirectory: false)
    }

    /// Makes a directory tree written beside its final place durable before it is moved there:
    /// the directory and its parent fsynced (its files were, as they were written).
    public func seal(_ directory: String) throws(FileSystemError) {
        guard writeProtocol.syncsDirectories else { return }
        try fileSystem.fsyncDirectory(directory)
        try fileSystem.fsyncDirectory(parentPath(directory))
    }

    /// Makes the entries of the directory at `path` durable (an fsync), as this writer's own steps
    /// make theirs: for a step built on the writer that adds or removes entries itself (a record
    /// unlinked, a tree linked file by file).
    public func syncDirectory(_ path: String) throws(FileSystemError) {
        if writeProtocol.syncsDirectories { try fileSystem.fsyncDirectory(path) }
    }

    /// Renames a directory (or file) to a new place durably: the destination's parent is created
    /// if needed, the rename is made, and both parents are fsynced (the destination's first).
    /// Fails with `FileSystemError.exists` when the destination exists.
    public func move(_ source: String, to destination: String) throws(FileSystemError) {
        guard fileSystem.kind(of: destination) == nil else { throw .exists(path: destination) }
        try makeDirectories(parentPath(destination))
        try fileSystem.rename(source, to: destination)
        guard writeProtocol.syncsDirectories else { return }
        try fileSystem.fsyncDirectory(parentPath(destination))
        if parentPath(source) != parentPath(destination) { try fileSystem.fsyncDirectory(parentPath(source)) }
    }
}
