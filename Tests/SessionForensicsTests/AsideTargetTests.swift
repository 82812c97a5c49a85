import Foundation
import SessionFormats
import SessionStore
import TestSupport
import Testing

@testable import SessionForensics

/// What an `aside` PATH names.
@Suite struct AsideTargetTests {
    init() { Browsers.install() }

    @Test func profilesAndSessionDirectories() throws {
        let profile = try AsideTestSupport.makeProfile()
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let id = AsideTestSupport.windows[0]
        #expect(try AsideTarget.locate(profile) == AsideTarget(profile: profile, session: nil, incognito: false, browser: "chrome-ios"))
        #expect(
            try AsideTarget.locate(profile + "/") == AsideTarget(profile: profile, session: nil, incognito: false, browser: "chrome-ios"))
        #expect(
            try AsideTarget.locate("\(profile)/SessionStorage/\(id)")
                == AsideTarget(profile: profile, session: id, incognito: false, browser: "chrome-ios"))
        #expect(
            try AsideTarget.locate("\(profile)/OTR/SessionStorage/\(id)/")
                == AsideTarget(profile: profile, session: id, incognito: true, browser: "chrome-ios"))
    }

    @Test func otherPathsAreRefused() throws {
        let profile = try AsideTestSupport.makeProfile()
        defer { try? FileManager.default.removeItem(atPath: profile) }
        #expect(throws: ForensicsError.self) { try AsideTarget.locate("\(profile)/SessionStorage") }
        #expect(throws: ForensicsError.self) {
            try AsideTarget.locate("\(profile)/SessionStorage/\(AsideTestSupport.windows[0])/session_metadata.pb")
        }
        #expect(throws: FormatError.self) { try AsideTarget.locate("\(profile)/nothing") }
    }

    /// A profile that holds no session yet is placed by the layout of the family it follows:
    /// Chrome for iOS's `Backups/` alone makes one (itself, or one level down); a directory laid
    /// out as no family's profile is refused.
    @Test func aProfileWithoutSessionsIsPlacedByItsFamilysLayout() throws {
        let root = NSTemporaryDirectory() + "aside-target-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/profile/Backups", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/empty", withIntermediateDirectories: true)
        let profile = root + "/profile"
        #expect(try AsideTarget.locate(profile) == AsideTarget(profile: profile, session: nil, incognito: false, browser: "chrome-ios"))
        #expect(
            try AsideTarget.locate(root)
                == AsideTarget(profile: profile, session: nil, incognito: false, foundInside: "profile", browser: "chrome-ios"))
        #expect(throws: ForensicsError.self) { try AsideTarget.locate(root + "/empty") }
    }
}
