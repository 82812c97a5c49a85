import Synchronization

#if canImport(Glibc)
    import FileSystemKit
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A directory tree built under a temporary name beside its final path and renamed into place
/// whole by `commit`, or removed by `abort`: the final path never holds a partial tree.
///
/// Paths given to it are relative to the tree's root; any that is absolute or holds `..` is
/// refused, so nothing is created outside the temporary directory. Files are fsynced as they are
/// closed and directories at commit, before the rename and the fsync of the parent.
///
/// A flawed `WriteProtocol` is honoured so that a crash checker can prove it catches it: one that
/// does not sync files (`.noFsync`) skips the files' fsyncs, one that does not sync directories
/// skips the directories'. A tree has no in-place form: `.inPlace` stages it as `.safe` does.
public final class StagedDirectory {
    /// The final path.
    public let path: String
    /// The temporary directory the tree is built in.
    public let temporaryPath: String
    private let fileSystem: any FileSystem
    private let writeProtocol: WriteProtocol
    private var directories: [String] = [""]
    private var open = true
    private static let counter = Atomic<UInt64>(0)

    /// Creates the temporary directory on `fileSystem`, for a tree written with every promise kept
    /// (`WriteProtocol.safe`); throws `.exists` when `path` exists already (after removing what
    /// killed runs left beside it, see `AbandonedOutputs`).
    public convenience init(path: String, fileSystem: any FileSystem = POSIXFileSystem()) throws(FileSystemError) {
        try self.init(path: path, fileSystem: fileSystem, writeProtocol: .safe)
    }

    /// Creates the temporary directory on `writer`'s file system, for a tree written as `writer`
    /// writes; throws as `init(path:fileSystem:)` does.
    public convenience init(path: String, writer: AtomicWriter) throws(FileSystemError) {
        try self.init(path: path, fileSystem: writer.fileSystem, writeProtocol: writer.writeProtocol)
    }

    /// Creates the temporary directory, for a tree written as `writeProtocol` says, flaws
    /// included; throws as `init(path:fileSystem:)` does.
    @_spi(CrashTesting) public init(path: String, fileSystem: any FileSystem, writeProtocol: WriteProtocol) throws(FileSystemError) {
        AbandonedOutputs.remove(besides: path, fileSystem: fileSystem)
        if fileSystem.kind(of: path) != nil { throw .exists(path: path) }
        self.path = path
        self.fileSystem = fileSystem
        self.writeProtocol = writeProtocol
        let name = lastPathComponent(path)
        var created: String?
        for _ in 0..<100 {
            let serial = StagedDirectory.counter.add(1, ordering: .relaxed).newValue
            let candidate = joinPath(parentPath(path), "\(AtomicWriter.temporaryPrefix)\(name).\(getpid()).d\(serial)")
            do {
                try fileSystem.mkdir(candidate, mode: 0o700)
                created = candidate
                break
            } catch .exists {
                continue
            }
        }
        guard let created else { throw .cannotCreate(path: path, reason: "no free temporary name") }
        temporaryPath = created
    }

    deinit { abort() }

    /// The on-disk path of a relative path inside the staged tree.
    public func location(_ relative: String) throws(FileSystemError) -> String {
        let parts = relative.split(separator: "/", omittingEmptySubsequences: true)
        guard !relative.hasPrefix("/"), !parts.contains(".."), open else {
            throw .cannotCreate(path: joinPath(path, relative), reason: "outside the output directory")
        }
        return parts.isEmpty ? temporaryPath : joinPath(temporaryPath, parts.joined(separator: "/"))
    }

    /// What is at a relative path (not following a symbolic link).
    public func kind(of relative: String) -> FileKind? {
        guard let location = try? location(relative) else { return nil }
        return fileSystem.kind(of: location)
    }

    /// Creates a directory (its parent must exist); an existing directory is fine.
    public func makeDirectory(_ relative: String, mode: UInt32 = 0o755) throws(FileSystemError) {
        let location = try location(relative)
        do throws(FileSystemError) {
            try fileSystem.mkdir(location, mode: mode | 0o700)
            directories.append(relative)
        } catch .exists {
            guard fileSystem.kind(of: location) == .directory else {
                throw .cannotCreate(path: joinPath(path, relative), reason: "something other than a directory is in the way")
            }
        }
    }

    /// Creates a new file (replacing a file or link already at that path) and returns its handle.
    public func createFile(_ relative: String, mode: UInt32 = 0o644) throws(FileSystemError) -> FileHandleID {
        let location = try location(relative)
        if let existing = fileSystem.kind(of: location) {
            guard existing != .directory else {
                throw .cannotCreate(path: joinPath(path, relative), reason: "a directory is in the way")
            }
            try fileSystem.unlink(location)
        }
        return try fileSystem.createExclusive(location, mode: mode)
    }

    /// Writes all of `bytes` to a file created by `createFile`.
    public func write(_ handle: FileHandleID, _ bytes: UnsafeRawBufferPointer, file relative: String) throws(FileSystemError) {
        let slice = ArraySlice(bytes.bindMemory(to: UInt8.self))
        var offset = slice.startIndex
        while offset < slice.endIndex {
            let written: Int
            do throws(FileSystemError) { written = try fileSystem.write(handle, slice[offset...]) } catch {
                throw error.naming(joinPath(path, relative))
            }
            guard written > 0 else { throw .io(operation: "write", path: joinPath(path, relative), code: EIO, reason: "no progress") }
            offset += written
        }
    }

    /// Makes a file durable and closes it.
    public func closeFile(_ handle: FileHandleID) throws(FileSystemError) {
        do throws(FileSystemError) {
            if writeProtocol.syncsFiles { try fileSystem.fsync(handle) }
        } catch {
            try? fileSystem.close(handle)
            throw error
        }
        try fileSystem.close(handle)
    }

    /// Creates a hard link `relative` to the existing file `existing`.
    public func link(_ existing: String, to relative: String) throws(FileSystemError) {
        let source = try location(existing)
        let destination = try location(relative)
        if let kind = fileSystem.kind(of: destination), kind != .directory { try fileSystem.unlink(destination) }
        try fileSystem.link(source, to: destination)
    }

    /// Creates a symbolic link; the caller has checked that `target` stays inside the tree.
    public func symlink(_ target: String, at relative: String) throws(FileSystemError) {
        let destination = try location(relative)
        if let kind = fileSystem.kind(of: destination), kind != .directory { try fileSystem.unlink(destination) }
        try fileSystem.symlink(target, at: destination)
    }

    /// Sets a modification time inside the tree (not following links).
    public func setModificationTime(_ relative: String, seconds: Int64) throws(FileSystemError) {
        try fileSystem.setModificationTime(try location(relative), seconds: seconds)
    }

    /// Removes a file or link inside the tree.
    public func remove(_ relative: String) throws(FileSystemError) {
        try fileSystem.unlink(try location(relative))
    }

    /// Renames the staged tree, or its subdirectory `subtree`, to the final path, after making it
    /// durable; whatever else the staging directory held is removed.
    public func commit(subtree: String = "") throws(FileSystemError) {
        if writeProtocol.syncsDirectories {
            for directory in directories.reversed() {
                try fileSystem.fsyncDirectory(try location(directory))
            }
        }
        let source = try location(subtree)
        if fileSystem.kind(of: path) != nil { throw .exists(path: path) }
        try fileSystem.rename(source, to: path)
        if !subtree.isEmpty { removeTree(temporaryPath) }
        open = false
        if writeProtocol.syncsDirectories { try fileSystem.fsyncDirectory(parentPath(path)) }
    }

    /// Removes the staged tree; the final path is not touched.
    public func abort() {
        guard open else { return }
        open = false
        removeTree(temporaryPath)
    }

    /// Removes a directory and everything under it, without following links.
    private func removeTree(_ root: String) {
        if fileSystem.kind(of: root) == .directory {
            for name in (try? fileSystem.list(root)) ?? [] { removeTree(joinPath(root, name)) }
            try? fileSystem.rmdir(root)
        } else {
            try? fileSystem.unlink(root)
        }
    }
}
