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
    /// Directories whose whole content the plan writes, by path.
    let written: [String: PlannedDirectory]
    /// Directories the plan moves away without writing anything in their place.
    let removed: Set<String>
    /// The names the plan adds to (written directories) and takes from (removed ones) each
    /// directory of `base`, by that directory's path.
    private let added: [String: Set<String>]
    private let taken: [String: Set<String>]
    /// Told how many written entries each answer about a planned path looked at (for tests that
    /// bound the work of validating a plan).
    var examined: (@Sendable (Int) -> Void)?

    init(base: ReadableTree, plan: RepairPlan) {
        self.base = base
        var written: [String: PlannedDirectory] = [:]
        for repair in plan.sessions {
            written[repair.directory] = PlannedDirectory(
                files: Dictionary(repair.files.map { ($0.path, $0.bytes) }, uniquingKeysWith: { _, last in last }))
        }
        for rewrite in plan.rewrites {
            let name = String(rewrite.file.dropFirst(rewrite.directory.isEmpty ? 0 : rewrite.directory.count + 1))
            written[rewrite.directory] = PlannedDirectory(files: [name: rewrite.bytes])
        }
        self.written = written
        removed = Set(plan.legacy.map(\.directory))
        added = PlannedTree.namesByParent(written.keys)
        taken = PlannedTree.namesByParent(removed)
    }

    /// The planned profile as a tree, naming files in messages as `base` does.
    var tree: ReadableTree {
        ReadableTree(fileSystem: self, root: "", displayName: base.displayName, errorPrefix: base.errorPrefix)
    }

    /// The planned directory holding `path` (or `path` itself), with the rest of the path; its
    /// files are nil for a directory the plan only removes.
    private func planned(_ path: String) -> (rest: String, files: PlannedDirectory?)? {
        var prefix = path
        while true {
            if removed.contains(prefix) { return (relative(path, to: prefix), nil) }
            if let files = written[prefix] { return (relative(path, to: prefix), files) }
            guard let slash = prefix.lastIndex(of: "/") else { return nil }
            prefix = String(prefix[..<slash])
        }
    }

    private func relative(_ path: String, to directory: String) -> String {
        path == directory ? "" : String(path.dropFirst(directory.count + 1))
    }

    func kind(of path: String) -> FileKind? {
        guard let (rest, files) = planned(path) else { return base.kind(of: path) }
        examined?(1)
        return files?.kind(rest)
    }

    func resolvedKind(of path: String) -> FileKind? { kind(of: path) }

    var readsConcurrently: Bool { base.fileSystem.readsConcurrently }

    func list(_ path: String) throws(FileSystemError) -> [String] {
        if let (rest, files) = planned(path) {
            guard let names = files?.list(rest) else {
                throw .io(operation: "opendir", path: path, code: SystemErrorCode.noEntry, reason: "No such file or directory")
            }
            examined?(names.count)
            return names
        }
        guard base.kind(of: path) == .directory else { return try base.fileSystem.list(base.absolute(path)) }
        let (more, fewer) = (added[path] ?? [], taken[path] ?? [])
        guard !more.isEmpty || !fewer.isEmpty else { return base.list(path) }
        return sortedByBytes(Array(Set(base.list(path)).subtracting(fewer).union(more)))
    }

    func read(_ path: String, limit: Int) throws(FileSystemError) -> [UInt8] {
        guard let (rest, files) = planned(path) else { return try base.fileSystem.read(base.absolute(path), limit: limit) }
        examined?(1)
        guard let bytes = files?.files[rest] else {
            throw .io(operation: "open", path: path, code: SystemErrorCode.noEntry, reason: "No such file or directory")
        }
        return bytes
    }

    func size(of path: String) -> Int? {
        guard let (rest, files) = planned(path) else { return base.size(of: path) }
        examined?(1)
        return files?.files[rest]?.count
    }

    /// The last names of `paths`, by the path of the directory holding them.
    private static func namesByParent<Paths: Sequence<String>>(_ paths: Paths) -> [String: Set<String>] {
        var names: [String: Set<String>] = [:]
        for path in paths {
            let parent = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
            let name = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
            names[parent, default: []].insert(name)
        }
        return names
    }
}
