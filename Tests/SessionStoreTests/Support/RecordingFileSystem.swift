@_spi(CrashTesting) import FileSystemKit
import Synchronization

@testable import SessionStore

/// A real file system that records every call, and can be told to fail one (the truncate of the
/// flawed in-place protocol included).
final class RecordingFileSystem: FileSystemHooks {
    /// One recorded call, with paths (a file handle is shown as the path it was created at).
    enum Call: Equatable, CustomStringConvertible {
        case create(String)
        case write(String, Int)
        case fsync(String)
        case close(String)
        case rename(String, String)
        case fsyncDirectory(String)
        case link(String, String)
        case unlink(String)
        case mkdir(String)
        case rmdir(String)
        case openTruncating(String)
        /// A hint to start writing a range back (`startWriteback`): offset and length.
        case startWriteback(String, Int64, Int64)

        var description: String {
            switch self {
            case .create(let path): return "create \(path)"
            case .write(let path, let count): return "write \(path) \(count)"
            case .fsync(let path): return "fsync \(path)"
            case .close(let path): return "close \(path)"
            case .rename(let from, let to): return "rename \(from) -> \(to)"
            case .fsyncDirectory(let path): return "fsyncdir \(path)"
            case .link(let from, let to): return "link \(from) -> \(to)"
            case .unlink(let path): return "unlink \(path)"
            case .mkdir(let path): return "mkdir \(path)"
            case .rmdir(let path): return "rmdir \(path)"
            case .openTruncating(let path): return "open O_TRUNC \(path)"
            case .startWriteback(let path, let offset, let length): return "writeback \(path) \(offset)+\(length)"
            }
        }
    }

    private struct State {
        var calls: [Call] = []
        var handles: [Int32: String] = [:]
        var failure: (@Sendable (Call) -> FileSystemError?)?
        var writeLimit: Int?
    }

    private let base = POSIXFileSystem()
    private let state = Mutex(State())

    /// Everything recorded so far.
    var calls: [Call] { state.withLock { $0.calls } }
    /// Forgets what was recorded.
    func reset() { state.withLock { $0.calls = [] } }
    /// Makes the calls for which `rule` returns an error fail (before they happen).
    func failWhen(_ rule: (@Sendable (Call) -> FileSystemError?)?) { state.withLock { $0.failure = rule } }
    /// Makes every write accept at most `limit` bytes (short writes).
    func limitWrites(to limit: Int?) { state.withLock { $0.writeLimit = limit } }

    private func record(_ call: Call) throws(FileSystemError) {
        let failure = state.withLock { state -> FileSystemError? in
            state.calls.append(call)
            return state.failure?(call)
        }
        if let failure { throw failure }
    }

    private func path(of handle: FileHandleID) -> String { state.withLock { $0.handles[handle.rawValue] ?? "?" } }

    func createExclusive(_ path: String, mode: UInt32) throws(FileSystemError) -> FileHandleID {
        try record(.create(path))
        let handle = try base.createExclusive(path, mode: mode)
        state.withLock { $0.handles[handle.rawValue] = path }
        return handle
    }

    func write(_ handle: FileHandleID, _ bytes: ArraySlice<UInt8>) throws(FileSystemError) -> Int {
        let limit = state.withLock { $0.writeLimit } ?? bytes.count
        let slice = bytes.prefix(limit)
        try record(.write(path(of: handle), slice.count))
        return try base.write(handle, slice)
    }

    func fsync(_ handle: FileHandleID) throws(FileSystemError) {
        try record(.fsync(path(of: handle)))
        try base.fsync(handle)
    }

    /// A hint never fails: recorded (no failure rule applies) and passed on.
    func startWriteback(_ handle: FileHandleID, offset: Int64, length: Int64) {
        let call = Call.startWriteback(path(of: handle), offset, length)
        state.withLock { $0.calls.append(call) }
        base.startWriteback(handle, offset: offset, length: length)
    }

    func close(_ handle: FileHandleID) throws(FileSystemError) {
        let path = path(of: handle)
        defer { state.withLock { _ = $0.handles.removeValue(forKey: handle.rawValue) } }
        do {
            try record(.close(path))
        } catch {
            try? base.close(handle)
            throw error
        }
        try base.close(handle)
    }

    func rename(_ source: String, to destination: String) throws(FileSystemError) {
        try record(.rename(source, destination))
        try base.rename(source, to: destination)
    }

    func fsyncDirectory(_ path: String) throws(FileSystemError) {
        try record(.fsyncDirectory(path))
        try base.fsyncDirectory(path)
    }

    func link(_ source: String, to destination: String) throws(FileSystemError) {
        try record(.link(source, destination))
        try base.link(source, to: destination)
    }

    func unlink(_ path: String) throws(FileSystemError) {
        try record(.unlink(path))
        try base.unlink(path)
    }

    func mkdir(_ path: String, mode: UInt32) throws(FileSystemError) {
        try record(.mkdir(path))
        try base.mkdir(path, mode: mode)
    }

    func rmdir(_ path: String) throws(FileSystemError) {
        try record(.rmdir(path))
        try base.rmdir(path)
    }

    func openTruncating(_ path: String, mode: UInt32) throws(FileSystemError) -> FileHandleID {
        try record(.openTruncating(path))
        let handle = try base.openTruncating(path, mode: mode)
        state.withLock { $0.handles[handle.rawValue] = path }
        return handle
    }

    func read(_ path: String, limit: Int) throws(FileSystemError) -> [UInt8] { try base.read(path, limit: limit) }
    func size(of path: String) -> Int? { base.size(of: path) }
    func resolvedKind(of path: String) -> FileKind? { base.resolvedKind(of: path) }
    func lockDirectory(_ path: String) throws(FileSystemError) -> DirectoryLock { try base.lockDirectory(path) }
    func list(_ path: String) throws(FileSystemError) -> [String] { try base.list(path) }
    func kind(of path: String) -> FileKind? { base.kind(of: path) }
}
