import SessionFormats

/// A directory of a `FileSystem` seen as a `ReadableTree`, so that the readers of SessionFormats
/// read through the same file system the store writes through.
public struct FileSystemTree: ReadableTree {
    public let fileSystem: any FileSystem
    /// The directory the tree's paths are relative to.
    public let root: String
    public var displayName: String { root }

    public init(fileSystem: any FileSystem, root: String) {
        self.fileSystem = fileSystem
        self.root = root
    }

    private func absolute(_ path: String) -> String { path.isEmpty ? root : joinPath(root, path) }

    public func kind(of path: String) -> TreeEntryKind? {
        switch fileSystem.kind(of: absolute(path)) {
        case .file?: return .file
        case .directory?: return .directory
        case .other?: return .other
        case nil: return nil
        }
    }

    public func list(_ path: String) -> [String] {
        (try? fileSystem.list(absolute(path))) ?? []
    }

    public func read(_ path: String) throws(FormatError) -> [UInt8] {
        do {
            return try fileSystem.read(absolute(path))
        } catch {
            throw .unreadable(path: absolute(path), reason: error.description)
        }
    }

    /// The size of a file, by reading it (the `FileSystem` interface has no stat).
    public func size(of path: String) -> Int? {
        guard kind(of: path) == .file else { return nil }
        return try? fileSystem.read(absolute(path)).count
    }
}
