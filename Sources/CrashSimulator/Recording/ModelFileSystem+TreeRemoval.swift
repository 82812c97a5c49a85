import FileSystemKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension ModelFileSystem {
    /// Removes a tree as `FileSystem.removeTree` says; when `collapsesTrees` and no directory
    /// is to be fsynced (and no call may be made to fail), in one step: the entry that names the
    /// tree is removed, which takes everything below it out of reach, and so out of the tree's
    /// hash and linkage (see `ModelTree`), in time proportional to the tree's depth.
    ///
    /// The state it ends on is the one the step-by-step calls end on, as every path and hash sees
    /// it. What it does not make is those calls, so a run that uses it is only for the tree it
    /// leaves: no crash between its steps can be made from it (`StateJudge` runs a recovery again
    /// step by step when it explores its crashes). It records one operation, an rmdir (or unlink)
    /// of the tree's path, and tells `shapesOfRemoval` of the tree before it goes.
    public func removeTree(_ path: String, kind: FileKind, syncingEachDirectory: Bool) throws(FileSystemError) {
        guard collapsesTrees, !syncingEachDirectory, beforeOperation == nil else {
            return try removeTreeStepByStep(path, kind: kind, syncingEachDirectory: syncingEachDirectory)
        }
        try rawRemoveTree(path)
    }

    /// Removes the file or directory tree at `path` in one step (see `removeTree`).
    func rawRemoveTree(_ path: String) throws(FileSystemError) {
        let at = try parentAndName(path, operation: "remove")
        guard let inode = tree.lookup(at.directory, at.name), let isDirectory = tree.isDirectory(inode) else {
            throw error("remove", path, ENOENT)
        }
        let shown = modelPath(path)
        noteRemovedAtOnce(shown, inode)
        tree.setEntry(at.directory, at.name, nil)
        append(
            FileOperation(
                kind: isDirectory ? .rmdir : .unlink, path: shown, destination: nil, size: 0,
                effect: .removeEntry(directory: at.directory, name: at.name), context: context, site: .none))
    }
}
