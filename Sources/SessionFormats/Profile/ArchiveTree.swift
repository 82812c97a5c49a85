import Archive

/// A tree held in memory: the members of a tar archive, or the one file of a gzip file, read
/// without extracting anything to disk.
///
/// Symbolic links, devices and other special members are listed with kind `.other` and never
/// followed; a hard link reads as the file it names.
public struct ArchiveTree: ReadableTree {
    /// The members, shared by a tree and its subtrees.
    final class Storage: Sendable {
        let files: [String: [UInt8]]
        let kinds: [String: TreeEntryKind]
        let children: [String: [String]]

        init(files: [String: [UInt8]], kinds: [String: TreeEntryKind]) {
            self.files = files
            self.kinds = kinds
            var children: [String: Set<String>] = [:]
            for path in kinds.keys {
                let parts = path.split(separator: "/").map(String.init)
                for depth in 0..<parts.count {
                    children[parts[0..<depth].joined(separator: "/"), default: []].insert(parts[depth])
                }
            }
            self.children = children.mapValues { $0.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } }
        }
    }

    private let storage: Storage
    /// The subtree's path inside the archive ("" for the whole archive).
    private let base: String
    public let displayName: String

    init(storage: Storage, base: String = "", displayName: String) {
        self.storage = storage
        self.base = base
        self.displayName = displayName
    }

    /// A tree of given files (paths relative to the root, parents implied), for a gzip file or tests.
    public init(files: [String: [UInt8]], displayName: String) {
        var kinds: [String: TreeEntryKind] = [:]
        for path in files.keys {
            kinds[path] = .file
            let parts = path.split(separator: "/")
            for depth in 1..<max(parts.count, 1) { kinds[parts[0..<depth].joined(separator: "/")] = .directory }
        }
        self.init(storage: Storage(files: files, kinds: kinds), displayName: displayName)
    }

    private func full(_ path: String) -> String { treePath(base, path) }

    /// The tree below one of this tree's directories.
    public func subtree(_ path: String) -> ArchiveTree {
        ArchiveTree(storage: storage, base: full(path), displayName: treePath(displayName, path))
    }

    public func kind(of path: String) -> TreeEntryKind? {
        let path = full(path)
        if path.isEmpty { return .directory }
        return storage.kinds[path] ?? (storage.children[path] != nil ? .directory : nil)
    }

    public func list(_ path: String) -> [String] {
        storage.children[full(path)] ?? []
    }

    public func read(_ path: String) throws(FormatError) -> [UInt8] {
        guard let bytes = storage.files[full(path)] else {
            throw .unreadable(path: treePath(displayName, path), reason: kind(of: path) == nil ? "no such file in the archive" : "not a regular file")
        }
        return bytes
    }

    public func size(of path: String) -> Int? {
        storage.files[full(path)]?.count
    }
}

/// Collects the members of a tar stream into an `ArchiveTree`, refusing paths that leave it.
struct ArchiveTreeBuilder: TarEntryHandler {
    let file: String
    private var files: [String: [UInt8]] = [:]
    private var kinds: [String: TreeEntryKind] = [:]
    private var current: String?

    init(file: String) { self.file = file }

    mutating func begin(_ entry: TarEntry) throws {
        let parts: [String]
        switch ArchivePath.components(of: entry.path) {
        case .success(let value): parts = value
        case .failure(let refusal): throw ArchiveError.unsafeEntry(file: file, entry: entry.path, reason: refusal.description)
        }
        current = nil
        guard !parts.isEmpty else { return }
        let path = parts.joined(separator: "/")
        for depth in 1..<parts.count where kinds[parts[0..<depth].joined(separator: "/")] == nil {
            kinds[parts[0..<depth].joined(separator: "/")] = .directory
        }
        files[path] = nil
        switch entry.kind {
        case .file:
            kinds[path] = .file
            files[path] = []
            current = path
        case .directory:
            kinds[path] = .directory
        case .hardLink:
            if case .success(let target) = ArchivePath.components(of: entry.linkTarget), let bytes = files[target.joined(separator: "/")] {
                kinds[path] = .file
                files[path] = bytes
            } else {
                kinds[path] = .other
            }
        default:
            kinds[path] = .other
        }
    }

    mutating func content(_ bytes: UnsafeRawBufferPointer) throws {
        if let current { files[current]?.append(contentsOf: bytes) }
    }

    mutating func end() throws {
        current = nil
    }

    /// The tree of everything read.
    func tree(displayName: String) -> ArchiveTree {
        ArchiveTree(storage: ArchiveTree.Storage(files: files, kinds: kinds), displayName: displayName)
    }
}
