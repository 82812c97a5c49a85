import FileSystemKit
import Foundation
import SessionStore
import TestSupport
import Testing

/// Every whole-file read refuses what is no regular file, without waiting on it.
@Suite struct POSIXReadTests {
    init() { Browsers.install() }

    @Test func fifosAndDevicesAreRefusedAtOnce() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("read-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fifo = directory + "/data.pb"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: FileSystemError.self) { _ = try POSIXFileSystem().read(fifo) }
        let zero = directory + "/state.pb"
        try FileManager.default.createSymbolicLink(atPath: zero, withDestinationPath: "/dev/zero")
        #expect(throws: FileSystemError.self) { _ = try POSIXFileSystem().read(zero) }
        let plain = directory + "/plain"
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: plain))
        #expect(try POSIXFileSystem().read(plain) == [1, 2, 3])
    }
}
