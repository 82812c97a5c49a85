import FileSystemKit
import SessionFormats

/// A profile as a repair plan's Firefox for iOS windows will leave it, read without writing
/// anything: the tree on disk with each window file the plan writes holding its new bytes and
/// each file it removes gone. What `repair --dry-run` validates for those windows.
struct PlannedFiles: ReadableFileSystem {
    /// The profile as it is; paths of this file system are relative to its root.
    let base: ReadableTree
    /// The files written, by path.
    let written: [String: [UInt8]]
    /// The files removed.
    let removed: Set<String>

    init(base: ReadableTree, plan: RepairPlan) {
        self.base = base
        var written: [String: [UInt8]] = [:]
        for window in plan.fileRewrites {
            if let bytes = window.bytes { written[window.file] = bytes }
            for state in window.stateFiles where base.kind(of: state.path) == nil { written[state.path] = state.bytes }
        }
        self.written = written
        removed = Set(plan.fileRewrites.flatMap(\.removes))
    }

    /// The planned profile as a tree, naming files in messages as `base` does.
    var tree: ReadableTree {
        ReadableTree(fileSystem: self, root: "", displayName: base.displayName, errorPrefix: base.errorPrefix)
    }

    /// Whether a directory holds a written file somewhere below it.
    private func holdsWritten(_ directory: String) -> Bool {
        written.keys.contains { $0.hasPrefix(directory.isEmpty ? "" : directory + "/") }
    }

    func kind(of path: String) -> FileKind? {
        if written[path] != nil { return .file }
        if removed.contains(path) { return nil }
        return base.kind(of: path) ?? (holdsWritten(path) ? .directory : nil)
    }

    func list(_ path: String) throws(FileSystemError) -> [String] {
        var names = Set(base.kind(of: path) == .directory ? base.list(path) : [])
        for file in written.keys where parentPath(file) == path || (path.isEmpty && !file.contains("/")) {
            names.insert(lastPathComponent(file))
        }
        // A directory holding a written file deeper down.
        for file in written.keys where file.hasPrefix(path.isEmpty ? "" : path + "/") {
            let rest = path.isEmpty ? file : String(file.dropFirst(path.count + 1))
            if let first = pathComponents(rest).first { names.insert(first) }
        }
        names.subtract(removed.filter { parentPath($0) == path }.map(lastPathComponent))
        guard !names.isEmpty || base.kind(of: path) == .directory || holdsWritten(path) else {
            throw .io(operation: "opendir", path: path, code: SystemErrorCode.noEntry, reason: "No such file or directory")
        }
        return sortedByBytes(Array(names))
    }

    func read(_ path: String, limit: Int) throws(FileSystemError) -> [UInt8] {
        if let bytes = written[path] { return bytes }
        if removed.contains(path) {
            throw .io(operation: "open", path: path, code: SystemErrorCode.noEntry, reason: "No such file or directory")
        }
        return try base.fileSystem.read(base.absolute(path), limit: limit)
    }

    func size(of path: String) -> Int? {
        if let bytes = written[path] { return bytes.count }
        return removed.contains(path) ? nil : base.size(of: path)
    }

    var readsConcurrently: Bool { base.fileSystem.readsConcurrently }
}
