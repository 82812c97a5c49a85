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
        #expect(try AsideTarget.locate(profile) == AsideTarget(profile: profile, session: nil, incognito: false))
        #expect(try AsideTarget.locate(profile + "/") == AsideTarget(profile: profile, session: nil, incognito: false))
        #expect(try AsideTarget.locate("\(profile)/SessionStorage/\(id)") == AsideTarget(profile: profile, session: id, incognito: false))
        #expect(
            try AsideTarget.locate("\(profile)/OTR/SessionStorage/\(id)/") == AsideTarget(profile: profile, session: id, incognito: true))
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
}
