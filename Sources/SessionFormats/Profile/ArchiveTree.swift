import Archive
import FileSystemKit

/// A file system held in memory: the members of a tar archive, or the one file of a gzip file,
/// read without extracting anything to disk. Paths are relative to the archive's root ("" is the root).
///
/// Symbolic links, devices and other special members are listed with kind `.other` and never
/// followed; a hard link reads as the file it names.
public struct ArchiveTree: ReadableFileSystem {
    private let files: [String: [UInt8]]
    private let kinds: [String: FileKind]
    private let children: [String: [String]]

    init(files: [String: [UInt8]], kinds: [String: FileKind]) {
        self.files = files
        self.kinds = kinds
        var children: [String: Set<String>] = [:]
        for path in kinds.keys {
            let parts = pathComponents(path)
            for depth in 0..<parts.count {
                children[parts[0..<depth].joined(separator: "/"), default: []].insert(parts[depth])
            }
        }
        self.children = children.mapValues { sortedByBytes(Array($0)) }
    }

    /// A tree of given files (paths relative to the root, parents implied), for a gzip file or tests.
    public init(files: [String: [UInt8]]) {
        var kinds: [String: FileKind] = [:]
        for path in files.keys {
            kinds[path] = .file
            let parts = pathComponents(path)
            for depth in 1..<max(parts.count, 1) { kinds[parts[0..<depth].joined(separator: "/")] = .directory }
        }
        self.init(files: files, kinds: kinds)
    }

    /// The archive as a tree whose messages name files below `displayName` (the archive's path).
    public func tree(displayName: String) -> ReadableTree {
        ReadableTree(fileSystem: self, root: "", displayName: displayName, errorPrefix: displayName)
    }

    public func kind(of path: String) -> FileKind? {
        if path.isEmpty { return .directory }
        return kinds[path] ?? (children[path] != nil ? .directory : nil)
    }

    public func list(_ path: String) throws(FileSystemError) -> [String] {
        guard kind(of: path) == .directory else {
            throw .io(operation: "list", path: path, code: SystemErrorCode.notADirectory, reason: "not a directory in the archive")
        }
        return children[path] ?? []
    }

    public func read(_ path: String, limit: Int) throws(FileSystemError) -> [UInt8] {
        guard let bytes = files[path] else {
            if kind(of: path) == nil {
                throw .io(operation: "read", path: path, code: SystemErrorCode.noEntry, reason: "no such file in the archive")
            }
            throw .notRegularFile(path: path)
        }
        guard bytes.count <= limit else { throw .tooLarge(path: path, size: Int64(bytes.count), limit: limit) }
        return bytes
    }

    public func size(of path: String) -> Int? {
        files[path]?.count
    }
}

/// Collects the members of a tar stream into an `ArchiveTree`, refusing paths that leave it.
struct ArchiveTreeBuilder: TarEntryHandler {
    let file: String
    private var files: [String: [UInt8]] = [:]
    private var kinds: [String: FileKind] = [:]
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
    func tree(displayName: String) -> ReadableTree {
        ArchiveTree(files: files, kinds: kinds).tree(displayName: displayName)
    }
}
