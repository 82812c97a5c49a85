import SessionFormats

/// A profile as a repair plan will leave it, read without writing anything: the tree on disk with
/// each session directory the plan rewrites holding exactly the files the plan writes, and each
/// directory it only sets aside gone. What `repair --dry-run` validates, so that it reports the
/// findings a run would leave.
///
/// `Backups/`, where the plan sets things aside, is read as it is: set-aside entries are not
/// sessions, and no finding concerns them.
struct PlannedTree: ReadableTree {
    let base: any ReadableTree
    /// Directories whose whole content the plan writes: path to (relative file path to bytes).
    let written: [String: [String: [UInt8]]]
    /// Directories the plan moves away without writing anything in their place.
    let removed: Set<String>

    init(base: any ReadableTree, plan: RepairPlan) {
        self.base = base
        var written: [String: [String: [UInt8]]] = [:]
        for repair in plan.sessions {
            var files = [ProfileLayout.metadataFile: repair.repaired.metadata]
            for tab in repair.repaired.tabs {
                files[treePath(tab.directory, ProfileLayout.tabDataFile)] = tab.data
                if let state = tab.state { files[treePath(tab.directory, ProfileLayout.tabStateFile)] = state }
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

    var displayName: String { base.displayName }

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

    func kind(of path: String) -> TreeEntryKind? {
        guard let (_, rest, files) = planned(path) else { return base.kind(of: path) }
        guard let files else { return nil }
        if rest.isEmpty { return .directory }
        if files[rest] != nil { return .file }
        return files.keys.contains { $0.hasPrefix(rest + "/") } ? .directory : nil
    }

    func list(_ path: String) -> [String] {
        if let (_, rest, files) = planned(path) {
            guard let files else { return [] }
            let prefix = rest.isEmpty ? "" : rest + "/"
            let names = files.keys.compactMap { key -> String? in
                guard key.hasPrefix(prefix) else { return nil }
                return key.dropFirst(prefix.count).split(separator: "/").first.map(String.init)
            }
            return Set(names).sorted()
        }
        var names = Set(base.list(path))
        for directory in removed where parent(of: directory) == path { names.remove(lastName(directory)) }
        for directory in written.keys where parent(of: directory) == path { names.insert(lastName(directory)) }
        return names.sorted()
    }

    func read(_ path: String) throws(FormatError) -> [UInt8] {
        guard let (_, rest, files) = planned(path) else { return try base.read(path) }
        guard let bytes = files?[rest] else { throw .unreadable(path: path, reason: "No such file or directory") }
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
