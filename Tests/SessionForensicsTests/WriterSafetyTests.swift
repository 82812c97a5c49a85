import FileSystemKit
import Foundation
import SessionFormats
import SessionModel
import SessionStore
import TestSupport
import Testing

@testable import ChromeIOS
@testable import SessionForensics

/// What the writing commands refuse before they change anything: a session reached through a
/// symbolic link, a file they could not read into a set-aside copy; and error messages that
/// name files, not descriptors.
@Suite struct WriterSafetyTests {
    init() { Browsers.install() }

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

    @Test func aSymlinkedBackupsIsNotWrittenThrough() throws {
        let profile = try RepairGalleryTests.copy("healthy")
        let outside = profile + "-backups"
        defer {
            try? FileManager.default.removeItem(atPath: profile)
            try? FileManager.default.removeItem(atPath: outside)
        }
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: "\(profile)/Backups", withDestinationPath: outside)
        let before = AsideTestSupport.snapshot(profile)
        #expect(throws: ForensicsError.self) {
            _ = try AsideTestSupport.aside(profile).push(session: nil, incognito: false, reason: "test")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside).isEmpty, "nothing written outside the profile")
        #expect(AsideTestSupport.snapshot(profile) == before)
    }

    @Test func aSessionWithAnUnreadableFileStaysLive() throws {
        let profile = try RepairGalleryTests.copy("healthy")
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let before = AsideTestSupport.snapshot(profile)
        let aside = AsideTestSupport.aside(profile, fileSystem: FailingAfterFileSystem(unreadable: "/00000006/data.pb"))
        #expect(throws: ForensicsError.self) { _ = try aside.push(session: nil, incognito: false, reason: "test") }
        #expect(AsideTestSupport.snapshot(profile) == before, "nothing moved")
    }

    @Test func aFailedWriteNamesItsFile() {
        let error = FileSystemError.io(operation: "write", path: "fd 4", code: 28, reason: "No space left on device")
        #expect(
            error.naming("/p/SessionStorage/S/session_metadata.pb").description
                == "/p/SessionStorage/S/session_metadata.pb: write failed: No space left on device")
        #expect(FileSystemError.exists(path: "/x").naming("/y") == .exists(path: "/x"))
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
