import FileSystemKit
import Foundation
@_spi(CrashTesting) import SessionStore
import Testing

/// A large output asks for its bytes to start going to the disk as it is written
/// (`FileSystem.startWriteback`), in order and without a gap, so that its commit's fsync waits
/// for less; the hint changes no byte, and a protocol that never fsyncs never asks.
@Suite struct WritebackTests {
    @Test func aLargeOutputIsWrittenBackAsItGoes() throws {
        let dir = NSTemporaryDirectory() + "writeback-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let piece = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        for (writeProtocol, asks) in [(WriteProtocol.safe, true), (.noFsync, false)] {
            let recording = WritebackRecordingFileSystem()
            let target = dir + "/out-\(writeProtocol.rawValue)"
            let output = try AtomicWriter(fileSystem: recording, writeProtocol: writeProtocol).begin(target)
            for _ in 0..<10 { try output.write(piece[...]) }
            try output.commit()
            #expect(try POSIXFileSystem().read(target, limit: 1 << 30) == Array([[UInt8]](repeating: piece, count: 10).joined()))
            let ranges = recording.calls.ranges
            if asks {
                // Every 4 MiB, from the start, each range where the one before ended.
                #expect(ranges.map(\.offset) == [0, 4 << 20] && ranges.allSatisfy { $0.length == 4 << 20 })
            } else {
                #expect(ranges.isEmpty)
            }
        }
    }

    @Test func theRealCallLeavesTheFileAsItWas() throws {
        let dir = NSTemporaryDirectory() + "writeback-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let output = try AtomicWriter().begin(dir + "/page")
        let bytes = [UInt8](repeating: 7, count: 9 << 20)
        try output.write(bytes[...])
        try output.commit()
        #expect(try POSIXFileSystem().read(dir + "/page", limit: 1 << 30) == bytes)
    }
}

/// The real file system, recording each `startWriteback` it is asked for.
struct WritebackRecordingFileSystem: FileSystem {
    final class Calls: @unchecked Sendable {
        private let lock = NSLock()
        private var recorded: [(offset: Int64, length: Int64)] = []
        var ranges: [(offset: Int64, length: Int64)] { lock.withLock { recorded } }
        func append(_ range: (offset: Int64, length: Int64)) { lock.withLock { recorded.append(range) } }
    }
    let base = POSIXFileSystem()
    let calls = Calls()
    func startWriteback(_ handle: FileHandleID, offset: Int64, length: Int64) {
        calls.append((offset, length))
        base.startWriteback(handle, offset: offset, length: length)
    }
    func createExclusive(_ path: String, mode: UInt32) throws(FileSystemError) -> FileHandleID {
        try base.createExclusive(path, mode: mode)
    }
    func write(_ handle: FileHandleID, _ bytes: ArraySlice<UInt8>) throws(FileSystemError) -> Int { try base.write(handle, bytes) }
    func fsync(_ handle: FileHandleID) throws(FileSystemError) { try base.fsync(handle) }
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
