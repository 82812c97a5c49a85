import FileSystemKit
import SessionStore

/// The calls of `FileSystem` that change the tree, each the raw operation of the model (its
/// temporary names made canonical, see `canonicalTemporaryPath`).
extension ModelFileSystem {
    public func createExclusive(_ path: String, mode: UInt32) throws(FileSystemError) -> FileHandleID {
        try rawCreateExclusive(path, mode: mode)
    }

    /// Opens a file for writing, truncating it (recorded as a truncate), or creates it.
    public func openTruncating(_ path: String, mode: UInt32) throws(FileSystemError) -> FileHandleID {
        try rawOpenTruncating(path, mode: mode)
    }

    public func write(_ handle: FileHandleID, _ bytes: ArraySlice<UInt8>) throws(FileSystemError) -> Int {
        try rawWrite(handle, bytes)
    }

    public func fsync(_ handle: FileHandleID) throws(FileSystemError) { try rawFsync(handle) }

    public func close(_ handle: FileHandleID) throws(FileSystemError) { try rawClose(handle) }

    public func rename(_ source: String, to destination: String) throws(FileSystemError) {
        try rawRename(source, to: destination)
    }

    public func fsyncDirectory(_ path: String) throws(FileSystemError) { try rawFsyncDirectory(path) }

    public func link(_ source: String, to destination: String) throws(FileSystemError) {
        try rawLink(source, to: destination)
    }

    public func unlink(_ path: String) throws(FileSystemError) { try rawUnlink(path) }

    public func mkdir(_ path: String, mode: UInt32) throws(FileSystemError) { try rawMkdir(path, mode: mode) }

    public func rmdir(_ path: String) throws(FileSystemError) { try rawRmdir(path) }
}
