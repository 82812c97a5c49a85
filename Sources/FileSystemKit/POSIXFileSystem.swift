#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The real file system: every call through `SystemCall`.
public struct POSIXFileSystem: FileSystem {
    public init() {}

    /// The error of the call that just failed.
    func failure(_ operation: String, _ path: String) -> FileSystemError {
        let code = SystemCall.errorCode
        return .io(operation: operation, path: path, code: code, reason: SystemCall.describe(code))
    }

    /// The error of a failed create: `.exists`, `.cannotCreate` for what a user can fix, or `.io`.
    private func creationFailure(_ operation: String, _ path: String) -> FileSystemError {
        let code = SystemCall.errorCode
        if code == EEXIST { return .exists(path: path) }
        if [EACCES, ENOENT, ENOTDIR, EROFS].contains(code) {
            return .cannotCreate(path: path, reason: SystemCall.describe(code))
        }
        return failure(operation, path)
    }

    public func createExclusive(_ path: String, mode: UInt32) throws(FileSystemError) -> FileHandleID {
        let fd = SystemCall.openFile(path, O_WRONLY | O_CREAT | O_EXCL, mode)
        guard fd >= 0 else { throw creationFailure("open", path) }
        return FileHandleID(rawValue: fd)
    }

    public func write(_ handle: FileHandleID, _ bytes: ArraySlice<UInt8>) throws(FileSystemError) -> Int {
        let count = bytes.withUnsafeBytes { SystemCall.writeBytes(handle.rawValue, $0.baseAddress, $0.count) }
        guard count >= 0 else { throw failure("write", "fd \(handle.rawValue)") }
        return count
    }

    public func fsync(_ handle: FileHandleID) throws(FileSystemError) {
        guard SystemCall.syncFile(handle.rawValue) == 0 else { throw failure("fsync", "fd \(handle.rawValue)") }
    }

    /// `sync_file_range` on Linux, nothing elsewhere; a failure is ignored (the fsync that follows
    /// reports what matters).
    public func startWriteback(_ handle: FileHandleID, offset: Int64, length: Int64) {
        _ = SystemCall.startWriteback(handle.rawValue, offset: offset, length: length)
    }

    public func close(_ handle: FileHandleID) throws(FileSystemError) {
        guard SystemCall.closeFile(handle.rawValue) == 0 else { throw failure("close", "fd \(handle.rawValue)") }
    }

    public func rename(_ source: String, to destination: String) throws(FileSystemError) {
        guard SystemCall.renameEntry(source, destination) == 0 else { throw failure("rename", "\(source) -> \(destination)") }
    }

    public func fsyncDirectory(_ path: String) throws(FileSystemError) {
        let fd = SystemCall.openFile(path, O_RDONLY | O_DIRECTORY)
        guard fd >= 0 else { throw failure("open directory", path) }
        defer { _ = SystemCall.closeFile(fd) }
        guard SystemCall.syncFile(fd) == 0 else { throw failure("fsync directory", path) }
    }

    public func link(_ source: String, to destination: String) throws(FileSystemError) {
        guard SystemCall.linkEntry(source, destination) == 0 else {
            if SystemCall.errorCode == EEXIST { throw .exists(path: destination) }
            throw failure("link", "\(source) -> \(destination)")
        }
    }

    public func unlink(_ path: String) throws(FileSystemError) {
        guard SystemCall.unlinkEntry(path) == 0 else { throw failure("unlink", path) }
    }

    public func mkdir(_ path: String, mode: UInt32) throws(FileSystemError) {
        guard SystemCall.makeDirectory(path, mode) == 0 else { throw creationFailure("mkdir", path) }
    }

    public func rmdir(_ path: String) throws(FileSystemError) {
        guard SystemCall.removeDirectory(path) == 0 else { throw failure("rmdir", path) }
    }

    public func symlink(_ target: String, at path: String) throws(FileSystemError) {
        guard SystemCall.symlinkEntry(target, path) == 0 else {
            if SystemCall.errorCode == EEXIST { throw .exists(path: path) }
            throw failure("symlink", path)
        }
    }

    public func setModificationTime(_ path: String, seconds: Int64) throws(FileSystemError) {
        guard SystemCall.setModificationTime(path, seconds: seconds) == 0 else { throw failure("utimensat", path) }
    }
}
