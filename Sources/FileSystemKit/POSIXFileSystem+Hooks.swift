#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The real disk's answers to the crash simulator's hooks: a true truncate for the flawed
/// in-place protocol, and the process table for whether a temporary's writer is gone.
@_spi(CrashTesting) extension POSIXFileSystem: FileSystemHooks {
    public func openTruncating(_ path: String, mode: UInt32) throws(FileSystemError) -> FileHandleID {
        let fd = SystemCall.openFile(path, O_WRONLY | O_CREAT | O_TRUNC, mode)
        guard fd >= 0 else { throw failure("open", path) }
        return FileHandleID(rawValue: fd)
    }

    /// Gone when the name carries the id of another process that this machine's process table
    /// (this PID namespace) does not hold; a process of another user counts as running.
    public func writerIsGone(temporary path: String, process: Int32?) -> Bool {
        guard let process, process > 0, process != getpid() else { return false }
        return !SystemCall.processExists(process)
    }
}
