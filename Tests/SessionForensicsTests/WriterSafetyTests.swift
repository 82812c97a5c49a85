import Foundation
import SessionFormats
import SessionModel
import SessionStore
import Testing
@testable import SessionForensics

/// What the writing commands refuse before they change anything: a session reached through a
/// symbolic link, a file they could not read into a set-aside copy; and error messages that
/// name files, not descriptors.
@Suite struct WriterSafetyTests {
    @Test func aSymlinkedSessionStorageIsNotRepairedThroughTheLink() throws {
        let profile = try RepairGalleryTests.copy("tab-id-duplicate")
        let outside = profile + "-outside"
        defer {
            try? FileManager.default.removeItem(atPath: profile)
            try? FileManager.default.removeItem(atPath: outside)
        }
        try FileManager.default.moveItem(atPath: "\(profile)/SessionStorage", toPath: outside)
        try FileManager.default.createSymbolicLink(atPath: "\(profile)/SessionStorage", withDestinationPath: outside)
        let before = AsideTestSupport.snapshot(outside)
        #expect(throws: ForensicsError.self) {
            _ = try Repairer(profile: profile, aside: AsideTestSupport.aside(profile)).run(dryRun: false)
        }
        #expect(AsideTestSupport.snapshot(outside) == before, "nothing outside the profile is touched")
        #expect(!FileManager.default.fileExists(atPath: "\(profile)/Backups"))
    }

    @Test func aSessionWithAnUnreadableFileStaysLive() throws {
        let profile = try RepairGalleryTests.copy("healthy")
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let before = AsideTestSupport.snapshot(profile)
        let aside = AsideTestSupport.aside(profile, fileSystem: UnreadableFileSystem(suffix: "/00000006/data.pb"))
        #expect(throws: ForensicsError.self) { _ = try aside.push(session: nil, incognito: false, reason: "test") }
        #expect(AsideTestSupport.snapshot(profile) == before, "nothing moved")
    }

    @Test func aFailedWriteNamesItsFile() {
        let error = StoreError.io(operation: "write", path: "fd 4", code: 28, reason: "No space left on device")
        #expect(error.naming("/p/SessionStorage/S/session_metadata.pb").description
                == "/p/SessionStorage/S/session_metadata.pb: write failed: No space left on device")
        #expect(StoreError.exists(path: "/x").naming("/y") == .exists(path: "/x"))
    }

    @Test(arguments: ["", ".", "..", "a/b", "a\u{0}b", "line\nbreak", String(repeating: "x", count: 256), ".sessionctl-repair.S"])
    func sessionIDsThatCannotBeDirectoryNamesAreRefused(_ id: String) {
        #expect(ProfileImporter.problem(withSessionID: id) != nil, "\(id.debugDescription)")
    }

    @Test func ordinarySessionIDsAreAccepted() {
        for id in ["{SyntheticIdentifier}", "6A1E4C2B-9D0F-4B7A-8E3C-2F5D7B9A1C0E-Inactive", String(repeating: "x", count: 255)] {
            #expect(ProfileImporter.problem(withSessionID: id) == nil)
        }
    }
}

/// The real file system, except that reading a file whose path ends in `suffix` fails.
final class UnreadableFileSystem: FileSystem {
    let base = POSIXFileSystem()
    let suffix: String

    init(suffix: String) { self.suffix = suffix }

    func createExclusive(_ path: String, mode: UInt32) throws(StoreError) -> FileHandleID { try base.createExclusive(path, mode: mode) }
    func write(_ handle: FileHandleID, _ bytes: ArraySlice<UInt8>) throws(StoreError) -> Int { try base.write(handle, bytes) }
    func fsync(_ handle: FileHandleID) throws(StoreError) { try base.fsync(handle) }
    func close(_ handle: FileHandleID) throws(StoreError) { try base.close(handle) }
    func rename(_ source: String, to destination: String) throws(StoreError) { try base.rename(source, to: destination) }
    func fsyncDirectory(_ path: String) throws(StoreError) { try base.fsyncDirectory(path) }
    func link(_ source: String, to destination: String) throws(StoreError) { try base.link(source, to: destination) }
    func unlink(_ path: String) throws(StoreError) { try base.unlink(path) }
    func mkdir(_ path: String, mode: UInt32) throws(StoreError) { try base.mkdir(path, mode: mode) }
    func rmdir(_ path: String) throws(StoreError) { try base.rmdir(path) }
    func read(_ path: String) throws(StoreError) -> [UInt8] {
        if path.hasSuffix(suffix) { throw .io(operation: "open", path: path, code: 13, reason: "Permission denied") }
        return try base.read(path)
    }
    func list(_ path: String) throws(StoreError) -> [String] { try base.list(path) }
    func kind(of path: String) -> FileKind? { base.kind(of: path) }
    func permissions(of path: String) -> UInt32? { base.permissions(of: path) }
}
