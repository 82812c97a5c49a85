#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SessionFormats

/// The real file system, through POSIX calls.
public struct POSIXFileSystem: FileSystem {
    public init() {}

    private func failure(_ operation: String, _ path: String) -> StoreError {
        let code = errno
        return .io(operation: operation, path: path, code: code, reason: String(cString: strerror(code)))
    }

    public func createExclusive(_ path: String, mode: UInt32) throws(StoreError) -> FileHandleID {
        while true {
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(mode))
            if fd >= 0 { return FileHandleID(rawValue: fd) }
            if errno == EINTR { continue }
            if errno == EEXIST { throw .exists(path: path) }
            if errno == EACCES || errno == ENOENT || errno == ENOTDIR || errno == EROFS {
                throw .cannotCreate(path: path, reason: String(cString: strerror(errno)))
            }
            throw failure("open", path)
        }
    }

    public func openTruncating(_ path: String, mode: UInt32) throws(StoreError) -> FileHandleID {
        while true {
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode_t(mode))
            if fd >= 0 { return FileHandleID(rawValue: fd) }
            if errno == EINTR { continue }
            throw failure("open", path)
        }
    }

    public func write(_ handle: FileHandleID, _ bytes: ArraySlice<UInt8>) throws(StoreError) -> Int {
        while true {
            let count = bytes.withUnsafeBytes { Glibc.write(handle.rawValue, $0.baseAddress, $0.count) }
            if count >= 0 { return count }
            if errno == EINTR { continue }
            throw failure("write", "fd \(handle.rawValue)")
        }
    }

    public func fsync(_ handle: FileHandleID) throws(StoreError) {
        guard Glibc.fsync(handle.rawValue) == 0 else { throw failure("fsync", "fd \(handle.rawValue)") }
    }

    public func close(_ handle: FileHandleID) throws(StoreError) {
        guard Glibc.close(handle.rawValue) == 0 else { throw failure("close", "fd \(handle.rawValue)") }
    }

    public func rename(_ source: String, to destination: String) throws(StoreError) {
        guard Glibc.rename(source, destination) == 0 else { throw failure("rename", "\(source) -> \(destination)") }
    }

    public func fsyncDirectory(_ path: String) throws(StoreError) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw failure("open directory", path) }
        defer { _ = Glibc.close(fd) }
        guard Glibc.fsync(fd) == 0 else { throw failure("fsync directory", path) }
    }

    public func link(_ source: String, to destination: String) throws(StoreError) {
        guard Glibc.link(source, destination) == 0 else {
            if errno == EEXIST { throw .exists(path: destination) }
            throw failure("link", "\(source) -> \(destination)")
        }
    }

    public func unlink(_ path: String) throws(StoreError) {
        guard Glibc.unlink(path) == 0 else { throw failure("unlink", path) }
    }

    public func mkdir(_ path: String, mode: UInt32) throws(StoreError) {
        guard Glibc.mkdir(path, mode_t(mode)) == 0 else {
            if errno == EEXIST { throw .exists(path: path) }
            if errno == EACCES || errno == ENOTDIR || errno == EROFS || errno == ENOENT {
                throw .cannotCreate(path: path, reason: String(cString: strerror(errno)))
            }
            throw failure("mkdir", path)
        }
    }

    public func rmdir(_ path: String) throws(StoreError) {
        guard Glibc.rmdir(path) == 0 else { throw failure("rmdir", path) }
    }

    /// Reads a whole regular file, as every reader of the project does (`DiskTree.readOpenFile`):
    /// opened without blocking, so that a FIFO never makes it wait; anything but a regular file,
    /// and a file over `DiskTree.maxFileSize`, refused.
    public func read(_ path: String) throws(StoreError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw failure("open", path) }
        defer { _ = Glibc.close(fd) }
        do throws(FormatError) {
            return try DiskTree.readOpenFile(fd, display: path)
        } catch {
            switch error {
            case .unreadable(_, let reason), .notASession(_, let reason), .invalidDocument(_, let reason), .damaged(_, _, let reason):
                throw .io(operation: "read", path: path, code: EINVAL, reason: reason)
            }
        }
    }

    public func list(_ path: String) throws(StoreError) -> [String] {
        guard let names = DiskTree.directoryEntries(path) else { throw failure("opendir", path) }
        return names
    }

    public func permissions(of path: String) -> UInt32? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return UInt32(info.st_mode) & 0o7777
    }

    public func kind(of path: String) -> FileKind? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .directory
        default: return .other
        }
    }
}
