#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Symbolic links and modification times on the real file system.
extension POSIXFileSystem {
    public func symlink(_ target: String, at path: String) throws(StoreError) {
        guard Glibc.symlink(target, path) == 0 else {
            let code = errno
            if code == EEXIST { throw .exists(path: path) }
            throw .io(operation: "symlink", path: path, code: code, reason: String(cString: strerror(code)))
        }
    }

    public func setModificationTime(_ path: String, seconds: Int64) throws(StoreError) {
        // Access time left as is: UTIME_OMIT, ((1 << 30) - 2) on Linux, which Swift does not import.
        var times = [timespec(tv_sec: 0, tv_nsec: (1 << 30) - 2), timespec(tv_sec: Int(seconds), tv_nsec: 0)]
        guard utimensat(AT_FDCWD, path, &times, AT_SYMLINK_NOFOLLOW) == 0 else {
            let code = errno
            throw .io(operation: "utimensat", path: path, code: code, reason: String(cString: strerror(code)))
        }
    }
}
