import FileSystemKit

/// The regular files below a directory, as the oracles that compare whole trees see them.
enum FileListing {
    /// The paths, relative to `directory`, of every regular file below it whose name `including`
    /// accepts (directories are descended into when their name is accepted too). With `strict`,
    /// nil when anything else is there (a link, a special file) or a directory cannot be listed;
    /// otherwise such entries are passed over.
    static func files(_ fileSystem: any ReadableFileSystem, under directory: String, strict: Bool,
                      including: (String) -> Bool = { _ in true }) -> [String]? {
        var found: [String] = []
        func walk(_ path: String, _ relative: String) -> Bool {
            guard let names = try? fileSystem.list(path) else { return !strict }
            for name in names where including(name) {
                let child = joinPath(path, name)
                switch fileSystem.kind(of: child) {
                case .directory?: if !walk(child, joinPath(relative, name)) { return false }
                case .file?: found.append(joinPath(relative, name))
                default: if strict { return false }
                }
            }
            return true
        }
        return walk(directory, "") ? found : nil
    }
}
