import Foundation
import Testing

/// `diff` between a legacy session.plist profile and an optimized one: tabs matched across formats.
@Suite struct DiffLegacyTests {
    @Test func legacyAndOptimizedOfTheSameSessionsAreIdentical() throws {
        let result = try CLI.run(["diff", CLI.path("Fixtures/profiles/legacy"), CLI.path("Fixtures/profiles/healthy")])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }

    @Test func aRetitledTabIsFoundAcrossFormats() throws {
        let out = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let original = try String(contentsOfFile: CLI.path("Fixtures/profiles/healthy.json"), encoding: .utf8)
        let edited = original.replacingOccurrences(of: "\"title\": \"Cart (2)\"", with: "\"title\": \"Cart (3)\"")
        #expect(edited != original)
        let json = "\(out)/edited.json"
        try edited.write(toFile: json, atomically: true, encoding: .utf8)
        #expect(try CLI.run(["import", json, "--out", "\(out)/profile"]).status == 0)
        let result = try CLI.run(["diff", CLI.path("Fixtures/profiles/legacy"), "\(out)/profile", "--format", "json"])
        #expect(result.status == 1)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let sessions = try #require(document["sessions"] as? [[String: Any]])
        let changed = sessions.filter { $0["status"] as? String == "changed" }
        #expect(changed.count == 1)
        let tabs = try #require(changed.first?["tabs"] as? [String: Any])
        let changedTabs = try #require(tabs["changed"] as? [[String: Any]])
        #expect(changedTabs.count == 1)
        #expect(changedTabs.first?["id"] as? Int == 10)
        #expect((changedTabs.first?["fields"] as? [String])?.contains("title") == true)
    }
}
