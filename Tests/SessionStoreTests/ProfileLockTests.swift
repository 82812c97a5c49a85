import FileSystemKit
import Foundation
import SessionStore
import TestSupport
import Testing

/// The profile lock: one holder at a time, released with its value.
@Suite struct ProfileLockTests {
    init() { Browsers.install() }

    @Test func secondHolderIsRefusedUntilRelease() throws {
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("lock-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: profile, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: profile) }
        var first: DirectoryLock? = try ProfileLock.acquire(profile: profile)
        #expect(first?.path == profile)
        #expect(throws: FileSystemError.locked(path: profile)) { _ = try ProfileLock.acquire(profile: profile) }
        first = nil
        let second = try ProfileLock.acquire(profile: profile)
        #expect(second.path == profile)
        #expect(try FileManager.default.contentsOfDirectory(atPath: profile).isEmpty, "the lock leaves nothing in the profile")
    }

    @Test func missingProfileCannotBeLocked() {
        #expect(throws: FileSystemError.self) { _ = try ProfileLock.acquire(profile: "/nonexistent-\(UUID().uuidString)") }
    }

    @Test func permissionsAreReported() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mode-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o710])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(POSIXFileSystem().permissions(of: directory) == 0o710)
        #expect(POSIXFileSystem().permissions(of: directory + "/missing") == nil)
    }
}
