import Foundation
import Testing

/// How the families whose sessions are files meet layouts no browser writes: set-aside
/// directories that are links out of the profile, two browsers in one directory, a file name at
/// the end of its range, a doctored set-aside entry, and paths the commands that change a
/// profile refuse.
@Suite struct ProfileLayoutEdgeTests {
    /// A scratch copy of a fixture directory at `<temporary>/profile`.
    static func copy(_ relative: String) throws -> String {
        let target = try CLI.temporaryDirectory("layout-edge") + "/profile"
        try FileManager.default.copyItem(atPath: CLI.path(relative), toPath: target)
        return target
    }

    /// For each family, a profile that repair would change, and the set-aside directory (relative
    /// to the profile directory repair takes) that its repair and `aside push` write into.
    static let setAsideCases: [(fixture: String, profile: String, entryParent: String)] = [
        ("Fixtures/firefox-desktop/gallery/session-file-skipped", "", "Backups"),
        ("Fixtures/firefox-desktop/gallery/session-file-skipped", "", "Backups/sessionstore"),
        ("Fixtures/chromium-desktop/gallery/unknown-command", "", "Backups/Sessions"),
        ("Fixtures/firefox-ios/gallery/tab-uuid-duplicate", "/profile.profile", "Backups/E3F1A7C2-5B4D-4E6F-8A9B-0C1D2E3F4A5B")
    ]

    /// A set-aside directory that is a symbolic link out of the profile is refused for every
    /// family, by repair, its dry run and aside push, and nothing is written anywhere.
    @Test(arguments: 0..<4)
    func setAsidesNeverLeaveTheProfile(index: Int) throws {
        let (fixture, inside, entryParent) = Self.setAsideCases[index]
        let copy = try Self.copy(fixture)
        defer { try? FileManager.default.removeItem(atPath: parentDirectory(copy)) }
        let profile = copy + inside
        let outside = parentDirectory(copy) + "/outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        let link = "\(profile)/\(entryParent)"
        try FileManager.default.createDirectory(atPath: parentDirectory(link), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: outside)
        let before = RepairCommandTests.files(profile)
        for arguments in [["repair", "--dry-run", profile], ["repair", profile], ["aside", "push", profile]] {
            let result = try CLI.run(arguments)
            #expect(result.status == 65, "\(fixture) \(entryParent) \(arguments): \(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains("symbolic link"), "\(result.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside).isEmpty)
        #expect(RepairCommandTests.files(profile) == before)
    }

    /// A healthy Firefox desktop profile beside a Chromium `Sessions/` that loses a tab, and
    /// Chrome for iOS's legacy windows beside `Session_` files: neither is read in silence.
    @Test func twoBrowsersInOneDirectoryAreBothNamed() throws {
        let profile = try Self.copy("Fixtures/chromium-desktop/gallery/unknown-command")
        defer { try? FileManager.default.removeItem(atPath: parentDirectory(profile)) }
        try FileManager.default.copyItem(
            atPath: CLI.path("Fixtures/firefox-desktop/gallery/healthy/sessionstore.jsonlz4"), toPath: "\(profile)/sessionstore.jsonlz4")
        for command in ["validate", "inspect", "report"] {
            let arguments = [command, profile] + (command == "report" ? ["-o", parentDirectory(profile) + "/report.html"] : [])
            let result = try CLI.run(arguments)
            #expect(result.status == 65, "\(command): \(result.stdout)\(result.stderr)")
            #expect(
                result.stderr.contains("--browser chromium-desktop") && result.stderr.contains("--browser firefox-desktop"),
                "\(result.stderr)")
        }
        let chosen = try CLI.run(["validate", profile, "--browser", "chromium-desktop"])
        #expect(chosen.status == 1 && chosen.stdout.contains("snss-command-unknown"), "\(chosen.stdout)\(chosen.stderr)")

        let mixed = try Self.copy("Fixtures/profiles/legacy")
        defer { try? FileManager.default.removeItem(atPath: parentDirectory(mixed)) }
        try FileManager.default.copyItem(
            atPath: CLI.path("Fixtures/chromium-desktop/gallery/healthy/Sessions/Session_13397000000000000"),
            toPath: "\(mixed)/Sessions/Session_13397000000000000")
        let both = try CLI.run(["validate", mixed])
        #expect(both.status == 65 && both.stderr.contains("--browser chrome-ios"), "\(both.stdout)\(both.stderr)")
    }

    /// When the newest file is `Session_` with the largest int64, no name sorts after it: repair
    /// says so and changes nothing (it wrote `Session_-9223372036854775808`, which Chrome never takes).
    @Test func aSessionFileNameAtTheEndOfItsRangeIsNotWrapped() throws {
        let profile = try Self.copy("Fixtures/chromium-desktop/gallery/unknown-command")
        defer { try? FileManager.default.removeItem(atPath: parentDirectory(profile)) }
        let sessions = profile + "/Sessions"
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: sessions).first { $0.hasPrefix("Session_") })
        try FileManager.default.moveItem(atPath: "\(sessions)/\(name)", toPath: "\(sessions)/Session_9223372036854775807")
        let before = RepairCommandTests.files(profile)
        for arguments in [["repair", "--dry-run", profile], ["repair", profile]] {
            let result = try CLI.run(arguments)
            #expect(result.status == 65 && result.stderr.contains("largest time a name can hold"), "\(result.stdout)\(result.stderr)")
        }
        #expect(RepairCommandTests.files(profile) == before)
    }

    /// A set-aside entry of Firefox desktop whose manifest was doctored (its file renamed in the
    /// entry and in the manifest) is refused, never put back as a Chrome window.
    @Test func aDoctoredEntryIsNotRestoredAsAnotherBrowsersSession() throws {
        let profile = try Self.copy("Fixtures/firefox-desktop/gallery/healthy")
        defer { try? FileManager.default.removeItem(atPath: parentDirectory(profile)) }
        #expect(try CLI.run(["aside", "push", profile]).status == 0)
        let parent = profile + "/Backups/sessionstore"
        let stamp = try #require(try FileManager.default.contentsOfDirectory(atPath: parent).first)
        let entry = "\(parent)/\(stamp)"
        try FileManager.default.moveItem(atPath: "\(entry)/sessionstore.jsonlz4", toPath: "\(entry)/data.bin")
        let manifest = try String(contentsOfFile: "\(entry)/manifest.json", encoding: .utf8)
        try Data(manifest.replacingOccurrences(of: "sessionstore.jsonlz4", with: "data.bin").utf8)
            .write(to: URL(fileURLWithPath: "\(entry)/manifest.json"))
        let result = try CLI.run(["aside", "restore", profile, "sessionstore@\(stamp)"])
        #expect(result.status == 65, "\(result.stdout)\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(profile)/SessionStorage"))
        #expect(FileManager.default.fileExists(atPath: "\(entry)/data.bin"))
    }

    /// Paths of the other families that repair refuses are not called Chrome's.
    @Test func refusedPathsAreNotCalledChromeProfiles() throws {
        for path in [
            "Fixtures/firefox-desktop/gallery/healthy/sessionstore.jsonlz4", "Fixtures/chromium-desktop/gallery/healthy/Sessions",
            "Fixtures/firefox-ios/gallery/healthy/profile.profile/window-data"
        ] {
            let result = try CLI.run(["repair", CLI.path(path)])
            #expect(result.status == 65, "\(path): \(result.stderr)")
            #expect(result.stderr.contains("not a profile") && !result.stderr.contains("Chrome profile"), "\(path): \(result.stderr)")
        }
    }
}
