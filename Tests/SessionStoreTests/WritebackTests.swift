import FileSystemKit
import Foundation
@_spi(CrashTesting) import SessionStore
import TestSupport
import Testing

/// A large output asks for its bytes to start going to the disk as it is written
/// (`FileSystem.startWriteback`), in order and without a gap, so that its commit's fsync waits
/// for less; the hint changes no byte, and a protocol that never fsyncs never asks.
@Suite struct WritebackTests {
    init() { Browsers.install() }

    @Test func aLargeOutputIsWrittenBackAsItGoes() throws {
        let dir = NSTemporaryDirectory() + "writeback-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let piece = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        for (writeProtocol, asks) in [(WriteProtocol.safe, true), (.noFsync, false)] {
            let recording = RecordingFileSystem()
            let target = dir + "/out-\(writeProtocol.rawValue)"
            let output = try AtomicWriter(fileSystem: recording, writeProtocol: writeProtocol).begin(target)
            for _ in 0..<10 { try output.write(piece[...]) }
            try output.commit()
            #expect(try POSIXFileSystem().read(target, limit: 1 << 30) == Array([[UInt8]](repeating: piece, count: 10).joined()))
            let ranges = recording.calls.compactMap { call -> (offset: Int64, length: Int64)? in
                guard case .startWriteback(_, let offset, let length) = call else { return nil }
                return (offset, length)
            }
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
