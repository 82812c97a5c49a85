/// An open file of a `FileSystem`.
public struct FileHandleID: Sendable, Hashable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }
}

/// What is at a path of a `FileSystem`.
public enum FileKind: Sendable, Equatable {
    case file
    case directory
    case other
}

/// Every file operation the session store makes, in one interface.
///
/// The store touches files only through this, so that the POSIX implementation can be swapped
/// for the crash simulator's recording one. Paths are absolute or relative to the process's
/// working directory; operations follow POSIX semantics (rename replaces atomically, link fails
/// when the destination exists, rmdir only removes empty directories).
public protocol FileSystem: Sendable {
    /// Creates a new file that must not exist yet (O_CREAT | O_EXCL), open for writing.
    func createExclusive(_ path: String, mode: UInt32) throws(StoreError) -> FileHandleID
    /// Writes some of `bytes` at the current position; returns how many were written (maybe fewer).
    func write(_ handle: FileHandleID, _ bytes: ArraySlice<UInt8>) throws(StoreError) -> Int
    /// Flushes a file's data and metadata to stable storage.
    func fsync(_ handle: FileHandleID) throws(StoreError)
    /// Closes a file.
    func close(_ handle: FileHandleID) throws(StoreError)
    /// Atomically renames `source` to `destination`, replacing it.
    func rename(_ source: String, to destination: String) throws(StoreError)
    /// Flushes a directory's entries to stable storage.
    func fsyncDirectory(_ path: String) throws(StoreError)
    /// Creates a hard link `destination` to `source`.
    func link(_ source: String, to destination: String) throws(StoreError)
    /// Removes a file.
    func unlink(_ path: String) throws(StoreError)
    /// Creates a directory (fails when it exists).
    func mkdir(_ path: String, mode: UInt32) throws(StoreError)
    /// Removes an empty directory.
    func rmdir(_ path: String) throws(StoreError)
    /// Reads a whole file.
    func read(_ path: String) throws(StoreError) -> [UInt8]
    /// Names of a directory's entries, sorted; throws when it is not a readable directory.
    func list(_ path: String) throws(StoreError) -> [String]
    /// What is at a path, or nil.
    func kind(of path: String) -> FileKind?
    /// Opens a file for writing, creating it or truncating it to zero (O_CREAT | O_TRUNC).
    ///
    /// The store's own protocol never calls this: only the deliberately flawed
    /// `WriteProtocol.inPlace` does. The default unlinks the file and creates it anew; a recording
    /// file system should implement it as a truncate.
    func openTruncating(_ path: String, mode: UInt32) throws(StoreError) -> FileHandleID
    /// The permission bits (`0o7777` part of the mode) of what is at a path, or nil when unknown.
    func permissions(of path: String) -> UInt32?
    /// Creates a symbolic link at `path` pointing to `target` (see FileSystem+Links.swift for the default).
    func symlink(_ target: String, at path: String) throws(StoreError)
    /// Sets a file's or directory's modification time, not following a symbolic link (default: no-op).
    func setModificationTime(_ path: String, seconds: Int64) throws(StoreError)
}

extension FileSystem {
    public func openTruncating(_ path: String, mode: UInt32) throws(StoreError) -> FileHandleID {
        if kind(of: path) == .file { try unlink(path) }
        return try createExclusive(path, mode: mode)
    }

    /// File systems that do not model permissions know none.
    public func permissions(of path: String) -> UInt32? { nil }
}

/// Joins path components with `/`, ignoring empty ones.
public func joinPath(_ parts: String...) -> String {
    var result = ""
    for part in parts where !part.isEmpty {
        if result.isEmpty || result.hasSuffix("/") { result += part } else { result += "/" + part }
    }
    return result
}

/// The directory part of a path ("." when it has none).
public func parentPath(_ path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    let parent = String(path[..<slash])
    return parent.isEmpty ? "/" : parent
}

/// The last component of a path.
public func lastPathComponent(_ path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return path }
    return String(path[path.index(after: slash)...])
}
