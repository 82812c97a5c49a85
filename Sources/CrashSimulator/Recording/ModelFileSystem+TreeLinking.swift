import FileSystemKit
import SessionStore

extension ModelFileSystem {
    /// The name prefixes a copy in one step can leave out: the store's temporary and backup names
    /// (`NameTable.isTransient`).
    private static let transientPrefixes: Set<String> = [AtomicWriter.temporaryPrefix, AtomicWriter.backupPrefix]

    /// Copies a tree with hard links as `FileSystem.linkTree` says; when `collapsesTrees`, no call
    /// may be made to fail, the names left out are the store's temporary and backup names, the
    /// source is a directory and the destination is free, in one step (`ModelTree.linkCopy`),
    /// with the same inodes as the step-by-step calls, so ending on the same tree.
    ///
    /// Like `removeTree` at once, it does not make those calls, so no crash between them can be
    /// made from the run. It records one operation, the mkdir of the copy (whose effect makes the
    /// whole copy), and tells `shapesOfLinking` of the copy. Otherwise (and whenever a step
    /// could fail) it makes the calls one by one.
    public func linkTree(
        _ source: String, to destination: String, mode: UInt32, syncingEachDirectory: Bool,
        leavingOut prefixes: [String]
    ) throws(FileSystemError) -> [String] {
        guard collapsesTrees, beforeOperation == nil, Set(prefixes) == ModelFileSystem.transientPrefixes,
            let linked = rawLinkTree(source, to: destination, syncing: syncingEachDirectory)
        else {
            return try linkTreeStepByStep(
                source, to: destination, mode: mode, syncingEachDirectory: syncingEachDirectory,
                leavingOut: prefixes)
        }
        return linked
    }

    /// Copies the directory tree at `source` to `destination` in one step and returns the files
    /// linked (see `linkTree`); nil, changing nothing, when the source is not a directory or the
    /// destination's parent is missing or the destination exists: the calls one by one then
    /// answer as POSIX would.
    func rawLinkTree(_ source: String, to destination: String, syncing: Bool) -> [String]? {
        guard let from = resolve(source), tree.isDirectory(from) == true,
            let at = try? parentAndName(destination, operation: "mkdir"), tree.lookup(at.directory, at.name) == nil
        else { return nil }
        let shown = modelPath(destination)
        noteLinkedAtOnce(modelPath(source), from, shown, syncing: syncing)
        var linked: [String]? = []
        let first = nextInode
        nextInode = tree.linkCopy(of: from, into: at.directory, name: at.name, firstInode: first, linked: &linked)
        append(
            FileOperation(
                kind: .mkdir, path: shown, destination: nil, size: 0,
                effect: .linkTree(source: from, directory: at.directory, name: at.name, firstInode: first),
                context: context, site: .none))
        return linked ?? []
    }
}
