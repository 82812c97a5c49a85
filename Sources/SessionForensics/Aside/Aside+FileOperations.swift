import SessionStore

extension Aside {
    /// Renames `source` to `destination` (which must not exist) and makes both directory entries
    /// durable: the destination's parent is fsynced first, so that after a crash the entry is in
    /// at least one place.
    func moveDurably(_ source: String, to destination: String) throws(StoreError) {
        guard fileSystem.kind(of: destination) == nil else { throw .exists(path: destination) }
        try fileSystem.rename(source, to: destination)
        try fileSystem.fsyncDirectory(parentPath(destination))
        if parentPath(source) != parentPath(destination) { try fileSystem.fsyncDirectory(parentPath(source)) }
    }

    /// Every regular file under `directory`, as sorted relative paths, the manifest (and a temporary
    /// file of an interrupted manifest write) at the top left out.
    func fileList(_ directory: String, relative: String = "") throws(StoreError) -> [String] {
        var result: [String] = []
        for name in try fileSystem.list(joinPath(directory, relative)) {
            if relative.isEmpty && AsideManifest.isManifestOrItsTemporary(name) { continue }
            let path = relative.isEmpty ? name : joinPath(relative, name)
            switch fileSystem.kind(of: joinPath(directory, path)) {
            case .file: result.append(path)
            case .directory: result += try fileList(directory, relative: path)
            default: break
            }
        }
        return result
    }

    /// Deletes a directory tree: files unlinked, each directory fsynced once empty and removed,
    /// then the parent fsynced.
    func removeTree(_ path: String) throws(StoreError) {
        try removeContents(path)
        try fileSystem.fsyncDirectory(parentPath(path))
    }

    private func removeContents(_ path: String) throws(StoreError) {
        guard let kind = fileSystem.kind(of: path) else { return }
        if kind == .directory {
            for name in try fileSystem.list(path) { try removeContents(joinPath(path, name)) }
            try fileSystem.fsyncDirectory(path)
            try fileSystem.rmdir(path)
        } else {
            try fileSystem.unlink(path)
        }
    }

    /// Removes `directory` when it is empty (and then its parent's entry is made durable).
    func removeIfEmpty(_ directory: String) throws(StoreError) {
        guard fileSystem.kind(of: directory) == .directory, try fileSystem.list(directory).isEmpty else { return }
        try fileSystem.rmdir(directory)
        try fileSystem.fsyncDirectory(parentPath(directory))
    }
}
