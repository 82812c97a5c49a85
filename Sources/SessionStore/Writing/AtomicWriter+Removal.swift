extension AtomicWriter {
    /// Removes a file or a whole directory tree durably: files are unlinked, each directory is
    /// fsynced once empty and then removed, and finally the parent of `path` is fsynced.
    /// Nothing happens when `path` does not exist.
    ///
    /// Used only by the save protocol (closed tabs, an emptied incognito side) and by `aside drop`
    /// on an entry the user asked to delete, never on other user data.
    public func removeTree(_ path: String, syncParent: Bool = true) throws(StoreError) {
        guard let kind = fileSystem.kind(of: path) else { return }
        if kind == .directory {
            for name in try fileSystem.list(path) {
                try removeTree(joinPath(path, name), syncParent: false)
            }
            if writeProtocol.syncsDirectories { try fileSystem.fsyncDirectory(path) }
            try fileSystem.rmdir(path)
        } else {
            try fileSystem.unlink(path)
        }
        if syncParent, writeProtocol.syncsDirectories { try fileSystem.fsyncDirectory(parentPath(path)) }
    }

    /// Renames a directory (or file) to a new place durably: the destination's parent is created
    /// if needed, the rename is made, and both parents are fsynced (the destination's first).
    /// Fails with `StoreError.exists` when the destination exists.
    public func move(_ source: String, to destination: String) throws(StoreError) {
        guard fileSystem.kind(of: destination) == nil else { throw .exists(path: destination) }
        try makeDirectories(parentPath(destination))
        try fileSystem.rename(source, to: destination)
        guard writeProtocol.syncsDirectories else { return }
        try fileSystem.fsyncDirectory(parentPath(destination))
        if parentPath(source) != parentPath(destination) { try fileSystem.fsyncDirectory(parentPath(source)) }
    }
}
