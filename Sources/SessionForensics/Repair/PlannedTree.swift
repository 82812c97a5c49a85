import FileSystemKit
import SessionFormats

/// A profile as a repair plan will leave it, read without writing anything: the tree on disk with
/// each session directory the plan rewrites holding exactly the files the plan writes, and each
/// directory it only sets aside gone. What `repair --dry-run` validates, so that it reports the
/// findings a run would leave.
///
/// `Backups/`, where the plan sets things aside, is read as it is: set-aside entries are not
/// sessions, and no finding concerns them.
struct PlannedTree: ReadableFileSystem {
    /// The profile as it is; paths of this file system are relative to its root.
    let base: ReadableTree
    /// Directories whose whole content the plan writes: path to (relative file path to bytes).
    let written: [String: [String: [UInt8]]]
    /// Directories the plan moves away without writing anything in their place.
    let removed: Set<String>

    init(base: ReadableTree, plan: RepairPlan) {
        self.base = base
        var written: [String: [String: [UInt8]]] = [:]
        for repair in plan.sessions {
            var files = [ProfileLayout.metadataFile: repair.repaired.metadata]
            for tab in repair.repaired.tabs {
                files[joinPath(tab.directory, ProfileLayout.tabDataFile)] = tab.data
                if let state = tab.state { files[joinPath(tab.directory, ProfileLayout.tabStateFile)] = state }
            }
            written[repair.directory] = files
        }
        for rewrite in plan.rewrites {
            let name = String(rewrite.file.dropFirst(rewrite.directory.isEmpty ? 0 : rewrite.directory.count + 1))
            written[rewrite.directory] = [name: rewrite.bytes]
        }
        self.written = written
        removed = Set(plan.legacy.map(\.directory))
    }

    /// The planned profile as a tree, naming files in messages as `base` does.
    var tree: ReadableTree {
        ReadableTree(fileSystem: self, root: "", displayName: base.displayName, errorPrefix: base.errorPrefix)
    }

    /// The planned directory holding `path` (or `path` itself), with the rest of the path.
    private func planned(_ path: String) -> (directory: String, rest: String, files: [String: [UInt8]]?)? {
        var prefix = path
        while true {
            if removed.contains(prefix) { return (prefix, relative(path, to: prefix), nil) }
            if let files = written[prefix] { return (prefix, relative(path, to: prefix), files) }
            guard let slash = prefix.lastIndex(of: "/") else { return nil }
            prefix = String(prefix[..<slash])
        }
    }

    private func relative(_ path: String, to directory: String) -> String {
        path == directory ? "" : String(path.dropFirst(directory.count + 1))
    }

    func kind(of path: String) -> FileKind? {
        guard let (_, rest, files) = planned(path) else { return base.kind(of: path) }
        return plannedKind(rest, files)
    }

    func resolvedKind(of path: String) -> FileKind? { kind(of: path) }

    var readsConcurrently: Bool { base.fileSystem.readsConcurrently }

    private func plannedKind(_ rest: String, _ files: [String: [UInt8]]?) -> FileKind? {
        guard let files else { return nil }
        if rest.isEmpty { return .directory }
        if files[rest] != nil { return .file }
        return files.keys.contains { $0.hasPrefix(rest + "/") } ? .directory : nil
    }

    func list(_ path: String) throws(FileSystemError) -> [String] {
        if let (_, rest, files) = planned(path) {
            guard let files, plannedKind(rest, files) == .directory else {
                throw .io(operation: "opendir", path: path, code: SystemErrorCode.noEntry, reason: "No such file or directory")
            }
            let prefix = rest.isEmpty ? "" : rest + "/"
            let names = files.keys.compactMap { key -> String? in
                guard key.hasPrefix(prefix) else { return nil }
                return pathComponents(String(key.dropFirst(prefix.count))).first
            }
            return sortedByBytes(Array(Set(names)))
        }
        guard base.kind(of: path) == .directory else { return try base.fileSystem.list(base.absolute(path)) }
        var names = Set(base.list(path))
        for directory in removed where parent(of: directory) == path { names.remove(lastName(directory)) }
        for directory in written.keys where parent(of: directory) == path { names.insert(lastName(directory)) }
        return sortedByBytes(Array(names))
    }

    func read(_ path: String, limit: Int) throws(FileSystemError) -> [UInt8] {
        guard let (_, rest, files) = planned(path) else { return try base.fileSystem.read(base.absolute(path), limit: limit) }
        guard let bytes = files?[rest] else {
            throw .io(operation: "open", path: path, code: SystemErrorCode.noEntry, reason: "No such file or directory")
        }
        return bytes
    }

    func size(of path: String) -> Int? {
        guard let (_, rest, files) = planned(path) else { return base.size(of: path) }
        return files?[rest]?.count
    }

    private func parent(of path: String) -> String {
        path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
    }

    private func lastName(_ path: String) -> String {
        path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    }
}
