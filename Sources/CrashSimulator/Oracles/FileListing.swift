import FileSystemKit

/// The regular files below a directory, as the oracles that compare whole trees see them.
enum FileListing {
    /// The paths, relative to `directory`, of every regular file below it whose name `including`
    /// accepts (directories are descended into when their name is accepted too). With `strict`,
    /// nil when anything else is there (a link, a special file) or a directory cannot be listed;
    /// otherwise such entries are passed over.
    static func files(
        _ fileSystem: any ReadableFileSystem, under directory: String, strict: Bool,
        including: (String) -> Bool = { _ in true }
    ) -> [String]? {
        var found: [String] = []
        func walk(_ path: String, _ relative: String) -> Bool {
            guard let entries = try? fileSystem.entries(of: path) else { return !strict }
            for entry in entries where including(entry.name) {
                let name = entry.name
                switch entry.kind {
                case .directory?: if !walk(joinPath(path, name), joinPath(relative, name)) { return false }
                case .file?: found.append(joinPath(relative, name))
                default: if strict { return false }
                }
            }
            return true
        }
        return walk(directory, "") ? found : nil
    }
}
