import CFileHints

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

#if canImport(Darwin)
    /// An open directory stream (`DIR *`).
    public typealias DirectoryStream = UnsafeMutablePointer<DIR>
#else
    /// An open directory stream (`DIR *`).
    public typealias DirectoryStream = OpaquePointer
#endif

/// The C library's file functions, each behind one seam that retries a call interrupted by a
/// signal (EINTR): the only place the project calls them. Results are the C ones (-1 and `errno`
/// on failure) so that callers decide what each errno means.
public enum SystemCall {
    /// The errno of the last failed call.
    public static var errorCode: Int32 { errno }

    /// The C library's text for an errno.
    public static func describe(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// Runs `call` until it returns something other than -1 with EINTR.
    @inline(__always)
    static func retrying<Result: BinaryInteger>(_ call: () -> Result) -> Result {
        while true {
            let result = call()
            if result != -1 || errno != EINTR { return result }
        }
    }

    static func openFile(_ path: String, _ flags: Int32, _ mode: UInt32 = 0) -> Int32 {
        retrying { open(path, flags | O_CLOEXEC, mode_t(mode)) }
    }

    static func openFile(at directory: Int32, _ name: String, _ flags: Int32) -> Int32 {
        retrying { openat(directory, name, flags | O_CLOEXEC) }
    }

    public static func readBytes(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        retrying { read(fd, buffer, count) }
    }

    /// Asks for huge pages under a large buffer about to be filled (Linux): one page fault per
    /// 2 MiB instead of per 4 KiB, which is most of the cost of reading a large file into memory.
    static func adviseLargeBuffer(_ buffer: UnsafeMutableRawBufferPointer) {
        #if os(Linux)
            let huge = 2 << 20
            guard buffer.count >= 2 * huge, let base = buffer.baseAddress else { return }
            let start = (Int(bitPattern: base) + huge - 1) & ~(huge - 1)
            let end = (Int(bitPattern: base) + buffer.count) & ~(huge - 1)
            guard end > start, let aligned = UnsafeMutableRawPointer(bitPattern: start) else { return }
            _ = madvise(aligned, end - start, 14)  // MADV_HUGEPAGE
        #endif
    }

    static func writeBytes(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        retrying { write(fd, buffer, count) }
    }

    static func syncFile(_ fd: Int32) -> Int32 { retrying { fsync(fd) } }

    /// Starts writing a range of a file back to the disk, without waiting (`sync_file_range`).
    static func startWriteback(_ fd: Int32, offset: Int64, length: Int64) -> Int32 {
        retrying { cfilehints_start_writeback(fd, offset, length) }
    }

    /// Closes a descriptor; never retried (after EINTR the descriptor is already gone on Linux).
    static func closeFile(_ fd: Int32) -> Int32 { close(fd) }

    static func renameEntry(_ source: String, _ destination: String) -> Int32 { retrying { rename(source, destination) } }
    static func linkEntry(_ source: String, _ destination: String) -> Int32 { retrying { link(source, destination) } }
    static func symlinkEntry(_ target: String, _ path: String) -> Int32 { retrying { symlink(target, path) } }
    static func unlinkEntry(_ path: String) -> Int32 { retrying { unlink(path) } }
    static func makeDirectory(_ path: String, _ mode: UInt32) -> Int32 { retrying { mkdir(path, mode_t(mode)) } }
    static func removeDirectory(_ path: String) -> Int32 { retrying { rmdir(path) } }

    /// What `stat` (following links) or `lstat` says of a path: its kind, size and permission bits.
    static func status(_ path: String, following: Bool) -> (kind: FileKind, size: Int64, permissions: UInt32)? {
        var info = stat()
        let result = retrying { following ? stat(path, &info) : lstat(path, &info) }
        guard result == 0 else { return nil }
        return (kind(info.st_mode), Int64(info.st_size), UInt32(info.st_mode) & 0o7777)
    }

    /// What `fstat` says of an open file: its kind and size.
    static func status(of fd: Int32) -> (kind: FileKind, size: Int64)? {
        var info = stat()
        guard retrying({ fstat(fd, &info) }) == 0 else { return nil }
        return (kind(info.st_mode), Int64(info.st_size))
    }

    /// What `fstatat` (following links unless told not to) says of an entry of an open
    /// directory: its kind and size.
    static func status(at directory: Int32, _ name: String, following: Bool = true) -> (kind: FileKind, size: Int64)? {
        var info = stat()
        guard retrying({ fstatat(directory, name, &info, following ? 0 : AT_SYMLINK_NOFOLLOW) }) == 0 else { return nil }
        return (kind(info.st_mode), Int64(info.st_size))
    }

    private static func kind(_ mode: mode_t) -> FileKind {
        switch mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .directory
        default: return .other
        }
    }

    /// The entry names (without `.` and `..`) of a directory, with the descriptor of the open
    /// directory handed to `body` while it is open; nil when it cannot be opened as a directory.
    static func withDirectory<T>(_ path: String, _ body: (_ names: [String], _ fd: Int32) -> T) -> T? {
        guard let directory = opendir(path) else { return nil }
        defer { closedir(directory) }
        return body(entryNames(of: directory), dirfd(directory))
    }

    /// The entries (without `.` and `..`) of a directory with their kinds, symbolic links not
    /// followed, sorted by name as `entryNames` sorts: the kind readdir reports, or `fstatat`'s
    /// where it reports none; nil when the path cannot be opened as a directory.
    static func entries(of path: String) -> [DirectoryEntry]? {
        guard let directory = opendir(path) else { return nil }
        defer { closedir(directory) }
        var entries: [DirectoryEntry] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            guard name != "." && name != ".." else { continue }
            let kind: FileKind?
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_REG): kind = .file
            case Int32(DT_DIR): kind = .directory
            case Int32(DT_UNKNOWN): kind = status(at: dirfd(directory), name, following: false)?.kind
            default: kind = .other
            }
            entries.append(DirectoryEntry(name: name, kind: kind))
        }
        return sortedByBytes(entries, name: \.name)
    }

    /// The entry names (without `.` and `..`) of an open directory stream, sorted by their UTF-8 bytes.
    public static func entryNames(of directory: DirectoryStream) -> [String] {
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return sortedByBytes(names)
    }

    /// An exclusive `flock` without waiting: 0, or -1 with errno (EWOULDBLOCK when held elsewhere).
    static func lockExclusively(_ fd: Int32) -> Int32 { retrying { flock(fd, LOCK_EX | LOCK_NB) } }
    static func lockShared(_ fd: Int32) -> Int32 { retrying { flock(fd, LOCK_SH | LOCK_NB) } }

    /// What changes when an entry is added to, removed from or renamed in a directory: its inode,
    /// modification and status-change times (nanoseconds); nil when it cannot be stat'ed.
    static func changeStamp(_ path: String) -> [Int64]? {
        var info = stat()
        guard retrying({ lstat(path, &info) }) == 0 else { return nil }
        #if canImport(Darwin)
            return [
                Int64(info.st_ino), Int64(info.st_mtimespec.tv_sec), Int64(info.st_mtimespec.tv_nsec),
                Int64(info.st_ctimespec.tv_sec), Int64(info.st_ctimespec.tv_nsec)
            ]
        #else
            return [
                Int64(info.st_ino), Int64(info.st_mtim.tv_sec), Int64(info.st_mtim.tv_nsec),
                Int64(info.st_ctim.tv_sec), Int64(info.st_ctim.tv_nsec)
            ]
        #endif
    }

    /// Whether an errno says a lock is held by someone else.
    static func isWouldBlock(_ code: Int32) -> Bool { code == EWOULDBLOCK }

    /// Sends SIGKILL to a process (the crash simulator's kill of a child at a chosen time).
    @_spi(CrashTesting) public static func killProcess(_ process: Int32) { _ = kill(process, SIGKILL) }

    /// Whether a process with this id exists in this PID namespace (one of another user's does).
    static func processExists(_ process: Int32) -> Bool { kill(process, 0) == 0 || errno != ESRCH }

    /// Sleeps for some microseconds.
    public static func pause(microseconds: UInt32) { _ = usleep(microseconds) }

    /// Sets a path's modification time, leaving its access time, not following a link.
    static func setModificationTime(_ path: String, seconds: Int64) -> Int32 {
        // UTIME_OMIT is ((1 << 30) - 2) on Linux and -2 on Darwin; Swift imports neither macro.
        #if canImport(Darwin)
            let omit = -2
        #else
            let omit = (1 << 30) - 2
        #endif
        var times = [timespec(tv_sec: 0, tv_nsec: omit), timespec(tv_sec: time_t(seconds), tv_nsec: 0)]
        return retrying { utimensat(AT_FDCWD, path, &times, AT_SYMLINK_NOFOLLOW) }
    }

    /// The working directory, or nil when it cannot be read.
    public static func workingDirectory() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return nil }
        return buffer.withUnsafeBufferPointer { $0.baseAddress.map { String(cString: $0) } }
    }
}

/// The errno values callers of `SystemCall` tell apart.
public enum SystemErrorCode {
    public static let exists = EEXIST
    public static let noEntry = ENOENT
    public static let accessDenied = EACCES
    public static let notADirectory = ENOTDIR
    public static let readOnly = EROFS
    public static let invalid = EINVAL
    public static let noSpace = ENOSPC
    public static let ioFailure = EIO
    public static let notEmpty = ENOTEMPTY
}
