import SessionStore

#if canImport(Glibc)
    @_spi(CrashTesting) import FileSystemKit
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The real file system with a counter of the logical operations the store makes (the ones a
/// recording counts: create, write, truncate, fsync, directory fsync, rename, link, unlink, mkdir,
/// rmdir), which makes the process stop dead, by raising SIGKILL itself, just before operation
/// number `stopAt` (counted from 0: the crash comes after `stopAt` completed operations).
public struct KillSwitchFileSystem: FileSystem {
    private let base = POSIXFileSystem()
    private let counter: Counter
    public let stopAt: Int?

    final class Counter: @unchecked Sendable {
        var performed = 0
        /// Where a parent reads the position after a kill (nil: nowhere).
        var board: PositionBoard?
    }

    /// A counting file system; with `board`, the position is also kept there for the parent.
    public init(stopAt: Int?, boardPath: String? = nil) {
        self.stopAt = stopAt
        counter = Counter()
        counter.board = boardPath.map { PositionBoard(writingAt: $0) }
    }

    /// Operations performed so far.
    public var performed: Int { counter.performed }

    /// Dies before an operation when it is the one to stop at; else counts it once it succeeded.
    private func counted<T>(_ body: () throws(FileSystemError) -> T) throws(FileSystemError) -> T {
        if let stopAt, counter.performed == stopAt { raise(SIGKILL) }
        counter.board?.starting(counter.performed)
        let value = try body()
        counter.performed += 1
        counter.board?.completed(counter.performed)
        return value
    }

    public func createExclusive(_ path: String, mode: UInt32) throws(FileSystemError) -> FileHandleID {
        try counted { () throws(FileSystemError) in try base.createExclusive(path, mode: mode) }
    }
    @_spi(CrashTesting) public func openTruncating(_ path: String, mode: UInt32) throws(FileSystemError) -> FileHandleID {
        try counted { () throws(FileSystemError) in try base.openTruncating(path, mode: mode) }
    }
    public func write(_ handle: FileHandleID, _ bytes: ArraySlice<UInt8>) throws(FileSystemError) -> Int {
        try counted { () throws(FileSystemError) in try base.write(handle, bytes) }
    }
    public func fsync(_ handle: FileHandleID) throws(FileSystemError) {
        try counted { () throws(FileSystemError) in try base.fsync(handle) }
    }
    /// A hint, not an operation a kill can land between: passed on uncounted.
    public func startWriteback(_ handle: FileHandleID, offset: Int64, length: Int64) {
        base.startWriteback(handle, offset: offset, length: length)
    }
    public func close(_ handle: FileHandleID) throws(FileSystemError) { try base.close(handle) }
    public func rename(_ source: String, to destination: String) throws(FileSystemError) {
        try counted { () throws(FileSystemError) in try base.rename(source, to: destination) }
    }
    public func fsyncDirectory(_ path: String) throws(FileSystemError) {
        try counted { () throws(FileSystemError) in try base.fsyncDirectory(path) }
    }
    public func link(_ source: String, to destination: String) throws(FileSystemError) {
        try counted { () throws(FileSystemError) in try base.link(source, to: destination) }
    }
    public func unlink(_ path: String) throws(FileSystemError) {
        try counted { () throws(FileSystemError) in try base.unlink(path) }
    }
    public func mkdir(_ path: String, mode: UInt32) throws(FileSystemError) {
        try counted { () throws(FileSystemError) in try base.mkdir(path, mode: mode) }
    }
    public func rmdir(_ path: String) throws(FileSystemError) {
        try counted { () throws(FileSystemError) in try base.rmdir(path) }
    }
    public func read(_ path: String, limit: Int) throws(FileSystemError) -> [UInt8] { try base.read(path, limit: limit) }
    public func size(of path: String) -> Int? { base.size(of: path) }
    public func resolvedKind(of path: String) -> FileKind? { base.resolvedKind(of: path) }
    public func snapshot(of path: String, reading file: String, measuring measured: String) -> DirectoryReading<FileSystemError> {
        base.snapshot(of: path, reading: file, measuring: measured)
    }
    public func lockDirectory(_ path: String) throws(FileSystemError) -> DirectoryLock { try base.lockDirectory(path) }
    public func list(_ path: String) throws(FileSystemError) -> [String] { try base.list(path) }
    public func kind(of path: String) -> FileKind? { base.kind(of: path) }
    public func permissions(of path: String) -> UInt32? { base.permissions(of: path) }
    public func symlink(_ target: String, at path: String) throws(FileSystemError) { try base.symlink(target, at: path) }
    public func setModificationTime(_ path: String, seconds: Int64) throws(FileSystemError) {
        try base.setModificationTime(path, seconds: seconds)
    }
}

/// The truncate of the flawed in-place protocol, counted as the recording counts it; the other
/// hooks are the defaults (nothing known of leftovers, no writer known to be gone).
@_spi(CrashTesting) extension KillSwitchFileSystem: FileSystemHooks {}
