import FileSystemKit
import Foundation
import SessionStore
import TestSupport
import Testing

@Suite struct AtomicWriterTests {
    init() { Browsers.install() }

    static func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("atomic-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func replacesContentAndLeavesNoTemporaryFile() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let writer = AtomicWriter()
        let target = joinPath(dir, "a/b/file")
        try writer.makeDirectories(parentPath(target))
        try writer.write(Array("first".utf8), to: target)
        try writer.write(Array("second, longer".utf8), to: target)
        #expect(try POSIXFileSystem().read(target) == Array("second, longer".utf8))
        #expect(try POSIXFileSystem().list(joinPath(dir, "a/b")) == ["file"])
    }

    @Test func failureKeepsTheOldFile() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let target = joinPath(dir, "file")
        try AtomicWriter().write([1, 2, 3], to: target)
        let failing = AtomicWriter(fileSystem: FailingFileSystem(failFsync: true))
        #expect(throws: FileSystemError.self) { try failing.write([9, 9], to: target) }
        #expect(try POSIXFileSystem().read(target) == [1, 2, 3])
        #expect(try POSIXFileSystem().list(dir) == ["file"])
    }

    @Test func shortWritesAreResumed() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let target = joinPath(dir, "file")
        let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0) }
        try AtomicWriter(fileSystem: FailingFileSystem(failFsync: false)).write(bytes, to: target)
        #expect(try POSIXFileSystem().read(target) == bytes)
    }

    @Test func aFileInTheWayOfADirectoryCannotBeCreated() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try AtomicWriter().write([1], to: joinPath(dir, "x"))
        #expect(throws: FileSystemError.self) { try AtomicWriter().makeDirectories(joinPath(dir, "x/y")) }
    }
}

/// The POSIX file system with writes cut to 7 bytes at a time and, optionally, a failing fsync.
struct FailingFileSystem: FileSystem {
    let base = POSIXFileSystem()
    let failFsync: Bool
    func createExclusive(_ path: String, mode: UInt32) throws(FileSystemError) -> FileHandleID {
        try base.createExclusive(path, mode: mode)
    }
    func write(_ handle: FileHandleID, _ bytes: ArraySlice<UInt8>) throws(FileSystemError) -> Int {
        try base.write(handle, bytes.prefix(7))
    }
    func fsync(_ handle: FileHandleID) throws(FileSystemError) {
        if failFsync { throw .io(operation: "fsync", path: "test", code: 5, reason: "injected") }
        try base.fsync(handle)
    }
    func close(_ handle: FileHandleID) throws(FileSystemError) { try base.close(handle) }
    func rename(_ source: String, to destination: String) throws(FileSystemError) { try base.rename(source, to: destination) }
    func fsyncDirectory(_ path: String) throws(FileSystemError) { try base.fsyncDirectory(path) }
    func link(_ source: String, to destination: String) throws(FileSystemError) { try base.link(source, to: destination) }
    func unlink(_ path: String) throws(FileSystemError) { try base.unlink(path) }
    func mkdir(_ path: String, mode: UInt32) throws(FileSystemError) { try base.mkdir(path, mode: mode) }
    func rmdir(_ path: String) throws(FileSystemError) { try base.rmdir(path) }
    func read(_ path: String, limit: Int) throws(FileSystemError) -> [UInt8] { try base.read(path, limit: limit) }
    func size(of path: String) -> Int? { base.size(of: path) }
    func resolvedKind(of path: String) -> FileKind? { base.resolvedKind(of: path) }
    func lockDirectory(_ path: String) throws(FileSystemError) -> DirectoryLock { try base.lockDirectory(path) }
    func list(_ path: String) throws(FileSystemError) -> [String] { try base.list(path) }
    func kind(of path: String) -> FileKind? { base.kind(of: path) }
}
