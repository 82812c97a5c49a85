#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Directory locks on the real file system: `flock` on the directory itself, so that nothing is
/// left in it and the lock goes with the process however it ends.
extension POSIXFileSystem {
    public func lockDirectory(_ path: String) throws(FileSystemError) -> DirectoryLock {
        let descriptor = SystemCall.openFile(path, O_RDONLY | O_DIRECTORY)
        guard descriptor >= 0 else {
            let code = SystemCall.errorCode
            if [EACCES, EROFS, ENOENT, ENOTDIR].contains(code) {
                throw .cannotCreate(path: path, reason: SystemCall.describe(code))
            }
            throw failure("open", path)
        }
        // A lock just released can stay held for an instant by a process being spawned (its
        // copies of close-on-exec descriptors live until it execs): try again for up to 0.2 s
        // before calling the directory locked.
        var attempts = 0
        while SystemCall.lockExclusively(descriptor) != 0 {
            let code = SystemCall.errorCode
            if SystemCall.isWouldBlock(code) && attempts < 20 {
                attempts += 1
                SystemCall.pause(microseconds: 10_000)
                continue
            }
            _ = SystemCall.closeFile(descriptor)
            if SystemCall.isWouldBlock(code) { throw .locked(path: path) }
            throw .io(operation: "flock", path: path, code: code, reason: SystemCall.describe(code))
        }
        return DirectoryLock(path: path) { _ = SystemCall.closeFile(descriptor) }
    }
}

extension POSIXFileSystem {
    /// Whether another open of `path` holds its exclusive lock (`lockDirectory`) now: probed with a
    /// shared `flock` that is let go at once. False when the directory cannot be opened or locked
    /// for another reason (nothing then says a writer is at work).
    public func isLockedExclusively(_ path: String) -> Bool {
        let descriptor = SystemCall.openFile(path, O_RDONLY | O_DIRECTORY)
        guard descriptor >= 0 else { return false }
        defer { _ = SystemCall.closeFile(descriptor) }
        return SystemCall.lockShared(descriptor) != 0 && SystemCall.isWouldBlock(SystemCall.errorCode)
    }

    /// A stamp of the directories at `paths` that changes whenever an entry is added to, removed
    /// from or renamed in one of them (a missing directory has a stamp too: its absence).
    public func directoryStamp(_ paths: [String]) -> [[Int64]] {
        paths.map { SystemCall.changeStamp($0) ?? [] }
    }
}
