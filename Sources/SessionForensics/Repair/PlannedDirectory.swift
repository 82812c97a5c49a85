import FileSystemKit

/// The files a repair plan writes into one directory, indexed once so that what is at a path and
/// what a subdirectory lists are each answered by a lookup: a planned session of thousands of tabs
/// is validated in time linear in its files, not in their square.
struct PlannedDirectory: Sendable {
    /// The bytes of each file, by path relative to the directory.
    let files: [String: [UInt8]]
    /// The names in each directory the files imply ("" is the directory itself), sorted by bytes.
    private let listings: [String: [String]]

    init(files: [String: [UInt8]]) {
        self.files = files
        var names: [String: Set<String>] = ["": []]
        for path in files.keys {
            var directory = ""
            for component in pathComponents(path) {
                names[directory, default: []].insert(component)
                directory = joinPath(directory, component)
            }
        }
        listings = names.mapValues { sortedByBytes(Array($0)) }
    }

    /// What is at `path` (relative to the directory; "" is the directory itself).
    func kind(_ path: String) -> FileKind? {
        if path.isEmpty { return .directory }
        if files[path] != nil { return .file }
        return listings[path] != nil ? .directory : nil
    }

    /// The names in the directory at `path`, sorted by bytes; nil when no directory is there.
    func list(_ path: String) -> [String]? {
        files[path] != nil ? nil : listings[path]
    }
}
