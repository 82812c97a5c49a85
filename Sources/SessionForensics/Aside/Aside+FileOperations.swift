import FileSystemKit
import SessionStore

extension Aside {
    /// Every regular file under `directory`, as sorted relative paths, the manifest (and a temporary
    /// file of an interrupted manifest write) at the top left out.
    func fileList(_ directory: String, relative: String = "") throws(FileSystemError) -> [String] {
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

    /// Removes `directory` when it is empty (and then its parent's entry is made durable).
    func removeIfEmpty(_ directory: String) throws(FileSystemError) {
        guard fileSystem.kind(of: directory) == .directory, try fileSystem.list(directory).isEmpty else { return }
        try fileSystem.rmdir(directory)
        try fileSystem.fsyncDirectory(parentPath(directory))
    }
}
