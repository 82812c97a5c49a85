import FileSystemKit

/// A directory of a file system that sessions are read from: a directory on disk, an archive held
/// in memory, or a profile as a plan will leave it.
///
/// Paths are relative to the tree's root, `/`-separated, with "" for the root itself. Symbolic
/// links are followed (a reader opening a path gets what it leads to); whatever the file system
/// refuses to read (special files, oversized ones) is refused here alike.
public struct ReadableTree: Sendable {
    /// The file system under the tree.
    public let fileSystem: any ReadableFileSystem
    /// The directory of `fileSystem` the tree's paths are relative to ("" for an in-memory tree's root).
    public let root: String
    /// A name for the tree in messages (the path the user gave).
    public let displayName: String
    /// What errors name a file by: the file's tree path below this prefix.
    public let errorPrefix: String

    /// The tree of `root` on `fileSystem`; errors name files by their tree path below `errorPrefix`.
    public init(fileSystem: any ReadableFileSystem, root: String, displayName: String? = nil, errorPrefix: String = "") {
        self.fileSystem = fileSystem
        self.root = root
        self.displayName = displayName ?? root
        self.errorPrefix = errorPrefix
    }

    /// A directory on the real disk; errors name files by their path in the tree.
    public static func disk(_ root: String) -> ReadableTree {
        ReadableTree(fileSystem: POSIXFileSystem(), root: root)
    }

    /// Reads one file named on the command line, with a reader's error naming it as given.
    public static func readFile(_ path: String, fileSystem: any ReadableFileSystem = POSIXFileSystem()) throws(FormatError) -> [UInt8] {
        do { return try fileSystem.read(path) } catch { throw FormatError(reading: error, named: path) }
    }

    /// The path on the file system of a tree path.
    public func absolute(_ path: String) -> String {
        path.isEmpty ? root : joinPath(root, path)
    }

    /// The tree below one of this tree's directories.
    public func subtree(_ path: String) -> ReadableTree {
        ReadableTree(
            fileSystem: fileSystem, root: absolute(path), displayName: joinPath(displayName, path),
            errorPrefix: joinPath(errorPrefix, path))
    }

    /// What is at a path: nil when nothing is there.
    public func kind(of path: String) -> FileKind? {
        fileSystem.resolvedKind(of: absolute(path))
    }

    /// Names of the entries of a directory, sorted; empty when it is not a directory.
    public func list(_ path: String) -> [String] {
        (try? fileSystem.list(absolute(path))) ?? []
    }

    /// The bytes of a regular file.
    public func read(_ path: String) throws(FormatError) -> [UInt8] {
        do {
            return try fileSystem.read(absolute(path))
        } catch {
            throw FormatError(reading: error, named: joinPath(errorPrefix, path))
        }
    }

    /// The bytes of a regular file as `read` gives them, mapped where the file system can (`FileBytes`).
    public func readBytes(_ path: String) throws(FormatError) -> FileBytes {
        do {
            return try fileSystem.readBytes(absolute(path), limit: maximumFileSize)
        } catch {
            throw FormatError(reading: error, named: joinPath(errorPrefix, path))
        }
    }

    /// The size of a regular file, without reading it.
    public func size(of path: String) -> Int? {
        fileSystem.size(of: absolute(path))
    }

    /// A directory's kind and entries, with one entry's bytes and another's size (see `DirectorySnapshot`).
    public func snapshot(of path: String, reading file: String, measuring measured: String) -> DirectorySnapshot {
        let reading = fileSystem.snapshot(of: absolute(path), reading: file, measuring: measured)
        let named = joinPath(errorPrefix, joinPath(path, file))
        return DirectorySnapshot(
            kind: reading.kind, names: reading.names,
            file: reading.file.map { $0.mapError { FormatError(reading: $0, named: named) } },
            measuredSize: reading.measuredSize)
    }
}

extension FormatError {
    /// A reader's error for a file the file system could not read: too large is no session, the rest unreadable.
    public init(reading error: FileSystemError, named path: String) {
        if case .tooLarge = error {
            self = .notASession(path: path, reason: error.reason)
        } else {
            self = .unreadable(path: path, reason: error.reason)
        }
    }
}
