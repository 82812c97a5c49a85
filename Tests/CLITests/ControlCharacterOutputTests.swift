import Foundation
import Testing

/// Names and titles read from a profile cannot forge output lines or send terminal escapes: text
/// output shows their control characters escaped, JSON output as JSON escapes.
@Suite struct ControlCharacterOutputTests {
    static let crafted = "X\nsessionctl: all clean\u{1b}[2J"

    private func craftedProfile() throws -> String {
        let profile = try CLI.temporaryDirectory()
        try FileManager.default.removeItem(atPath: profile)
        try FileManager.default.copyItem(atPath: CLI.path("Fixtures/gallery/healthy"), toPath: profile)
        let storage = "\(profile)/SessionStorage"
        let id = try #require(try FileManager.default.contentsOfDirectory(atPath: storage).first)
        try FileManager.default.moveItem(atPath: "\(storage)/\(id)", toPath: "\(storage)/\(Self.crafted)")
        return profile
    }

    @Test(arguments: [["inspect"], ["validate"], ["aside", "push"]])
    func textOutputEscapesControlCharacters(_ command: [String]) throws {
        let profile = try craftedProfile()
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let result = try CLI.run(command + [profile])
        #expect(result.status == 0 || result.status == 1, "\(result.stderr)")
        #expect(!result.stdout.contains("\u{1b}"))
        #expect(!result.stdout.split(separator: "\n").contains { $0.hasPrefix("sessionctl: all clean") })
        if command != ["validate"] { #expect(result.stdout.contains("X\\nsessionctl: all clean\\x1b[2J")) }
        #expect(!result.stderr.contains("\u{1b}"))
    }

    /// A colour sequence and a right-to-left override in a name reach the terminal escaped too,
    /// in inspect's text and in diff's.
    @Test(arguments: [["inspect"], ["diff"]])
    func colourSequencesAndBidiOverridesAreEscaped(_ command: [String]) throws {
        let profile = try CLI.temporaryDirectory()
        try FileManager.default.removeItem(atPath: profile)
        defer { try? FileManager.default.removeItem(atPath: profile) }
        try FileManager.default.copyItem(atPath: CLI.path("Fixtures/gallery/healthy"), toPath: profile)
        let storage = "\(profile)/SessionStorage"
        let id = try #require(try FileManager.default.contentsOfDirectory(atPath: storage).first)
        let name = "\u{1b}[31mred\u{1b}[0m\u{202E}fdp.exe"
        try FileManager.default.moveItem(atPath: "\(storage)/\(id)", toPath: "\(storage)/\(name)")
        let arguments = command == ["diff"] ? ["diff", CLI.path("Fixtures/gallery/healthy"), profile] : command + [profile]
        let result = try CLI.run(arguments)
        #expect([0, 1].contains(result.status), "\(result.stderr)")
        #expect(result.stdout.contains("\\x1b[31mred\\x1b[0m\\u{202e}fdp.exe"), "\(result.stdout)")
        #expect(!result.stdout.contains("\u{202E}"))
        #expect(!result.stdout.contains("\u{1b}[31mred"))
    }

    @Test func jsonOutputKeepsTheNameExactly() throws {
        let profile = try craftedProfile()
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let result = try CLI.run(["inspect", profile, "--format", "json"])
        #expect(result.status == 0)
        let document = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let sessions = document?["sessions"] as? [[String: Any]] ?? []
        #expect(sessions.contains { $0["id"] as? String == Self.crafted })
    }
}
