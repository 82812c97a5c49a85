/// An open file of a `FileSystem`.
public struct FileHandleID: Sendable, Hashable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }
}

/// Every file operation the project makes, reading and writing, in one interface.
///
/// Everything that touches the disk goes through this, so that the POSIX implementation can be
/// swapped for the crash simulator's recording one, which then drives every command that writes.
/// Operations follow POSIX semantics (rename replaces atomically, link fails when the destination
/// exists, rmdir only removes empty directories). What only the crash simulator needs of a file
/// system is apart, behind the `CrashTesting` SPI (`FileSystemHooks`).
public protocol FileSystem: ReadableFileSystem {
    /// Creates a new file that must not exist yet (O_CREAT | O_EXCL), open for writing.
    func createExclusive(_ path: String, mode: UInt32) throws(FileSystemError) -> FileHandleID
    /// Writes some of `bytes` at the current position; returns how many were written (maybe fewer).
    func write(_ handle: FileHandleID, _ bytes: ArraySlice<UInt8>) throws(FileSystemError) -> Int
    /// Flushes a file's data and metadata to stable storage.
    func fsync(_ handle: FileHandleID) throws(FileSystemError)
    /// Asks that bytes already written to a file start going to the disk now, so that its later
    /// `fsync` waits for less: a hint, which makes nothing durable and may do nothing.
    func startWriteback(_ handle: FileHandleID, offset: Int64, length: Int64)
    /// Closes a file.
    func close(_ handle: FileHandleID) throws(FileSystemError)
    /// Atomically renames `source` to `destination`, replacing it.
    func rename(_ source: String, to destination: String) throws(FileSystemError)
    /// Flushes a directory's entries to stable storage.
    func fsyncDirectory(_ path: String) throws(FileSystemError)
    /// Creates a hard link `destination` to `source`.
    func link(_ source: String, to destination: String) throws(FileSystemError)
    /// Removes a file.
    func unlink(_ path: String) throws(FileSystemError)
    /// Creates a directory (fails when it exists).
    func mkdir(_ path: String, mode: UInt32) throws(FileSystemError)
    /// Removes an empty directory.
    func rmdir(_ path: String) throws(FileSystemError)
    /// Creates a symbolic link at `path` pointing to `target` (default: not supported).
    func symlink(_ target: String, at path: String) throws(FileSystemError)
    /// Sets a file's or directory's modification time, not following a symbolic link (default: no-op).
    func setModificationTime(_ path: String, seconds: Int64) throws(FileSystemError)
    /// Takes an exclusive advisory lock on a directory, held until the returned lock is released;
    /// `.locked` when another holder has it. The default lock is held in this process only.
    func lockDirectory(_ path: String) throws(FileSystemError) -> DirectoryLock
    /// Removes what is at `path`, of kind `kind`: a file is unlinked; a directory loses its
    /// entries depth first (in `entries(of:)` order; an entry of another kind is left, and the
    /// directory's rmdir then fails), is fsynced once empty when `syncingEachDirectory`, and is
    /// removed. The default makes exactly those calls (`removeTreeStepByStep`); a model whose
    /// steps nobody inspects may remove an unsynced tree in one go, ending on the same tree.
    func removeTree(_ path: String, kind: FileKind, syncingEachDirectory: Bool) throws(FileSystemError)
    /// Makes `destination`, which must not exist, a copy of the directory tree at `source` made of
    /// hard links: `destination` is made with `mkdir`, then for each entry of `source` (in
    /// `entries(of:)` order, leaving out names that start with one of `leavingOut`, and entries of
    /// other kinds) a file is linked and a directory copied the same way, depth first; each new
    /// directory is fsynced once its entries are in when `syncingEachDirectory`. Returns the files
    /// linked, as paths relative to `destination`, in that order. The default makes exactly those
    /// calls (`linkTreeStepByStep`); a model whose steps nobody inspects may make the copy in one
    /// go, ending on the same tree. `destination` must not lie under `source`.
    func linkTree(
        _ source: String, to destination: String, mode: UInt32, syncingEachDirectory: Bool,
        leavingOut prefixes: [String]
    ) throws(FileSystemError) -> [String]
}

extension FileSystem {
    /// By default nothing is written back early (the hint is dropped).
    public func startWriteback(_ handle: FileHandleID, offset: Int64, length: Int64) {}

    /// By default a file system has no symbolic links.
    public func symlink(_ target: String, at path: String) throws(FileSystemError) {
        throw .cannotCreate(path: path, reason: "symbolic links are not supported here")
    }

    /// By default a tree is removed call by call.
    public func removeTree(_ path: String, kind: FileKind, syncingEachDirectory: Bool) throws(FileSystemError) {
        try removeTreeStepByStep(path, kind: kind, syncingEachDirectory: syncingEachDirectory)
    }

    /// `removeTree` made of `entries(of:)`, `unlink`, `fsyncDirectory` and `rmdir` calls.
    public func removeTreeStepByStep(_ path: String, kind: FileKind, syncingEachDirectory: Bool) throws(FileSystemError) {
        guard kind == .directory else { return try unlink(path) }
        for entry in try entries(of: path) {
            guard let kind = entry.kind else { continue }
            try removeTreeStepByStep(joinPath(path, entry.name), kind: kind, syncingEachDirectory: syncingEachDirectory)
        }
        if syncingEachDirectory { try fsyncDirectory(path) }
        try rmdir(path)
    }

    /// By default a tree is copied call by call.
    public func linkTree(
        _ source: String, to destination: String, mode: UInt32, syncingEachDirectory: Bool,
        leavingOut prefixes: [String]
    ) throws(FileSystemError) -> [String] {
        try linkTreeStepByStep(source, to: destination, mode: mode, syncingEachDirectory: syncingEachDirectory, leavingOut: prefixes)
    }

    /// `linkTree` made of `mkdir`, `entries(of:)`, `link` and `fsyncDirectory` calls.
    public func linkTreeStepByStep(
        _ source: String, to destination: String, mode: UInt32, syncingEachDirectory: Bool,
        leavingOut prefixes: [String]
    ) throws(FileSystemError) -> [String] {
        var linked: [String] = []
        try linkTreeStepByStep(
            source, to: destination, relative: "", mode: mode, syncingEachDirectory: syncingEachDirectory,
            leavingOut: prefixes, linked: &linked)
        return linked
    }

    private func linkTreeStepByStep(
        _ source: String, to destination: String, relative: String, mode: UInt32,
        syncingEachDirectory: Bool, leavingOut prefixes: [String],
        linked: inout [String]
    ) throws(FileSystemError) {
        try mkdir(destination, mode: mode)
        for entry in try entries(of: source) where !prefixes.contains(where: { entry.name.hasPrefix($0) }) {
            let name = entry.name
            switch entry.kind {
            case .directory:
                try linkTreeStepByStep(
                    joinPath(source, name), to: joinPath(destination, name), relative: joinPath(relative, name),
                    mode: mode, syncingEachDirectory: syncingEachDirectory, leavingOut: prefixes, linked: &linked)
            case .file:
                try link(joinPath(source, name), to: joinPath(destination, name))
                linked.append(joinPath(relative, name))
            default: continue
            }
        }
        if syncingEachDirectory { try fsyncDirectory(destination) }
    }

    /// By default modification times are not kept.
    public func setModificationTime(_ path: String, seconds: Int64) throws(FileSystemError) {}

    public func lockDirectory(_ path: String) throws(FileSystemError) -> DirectoryLock {
        guard resolvedKind(of: path) == .directory else {
            throw .cannotCreate(path: path, reason: "No such directory")
        }
        return DirectoryLock.inProcess(path)
    }
}
