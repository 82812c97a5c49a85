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
