import Foundation
import Testing

/// Legacy sessions from an encoder other than sessionctl's (Fixtures/legacy-encoder/make-samples,
/// Python's plistlib): inspect prints what the sample's JSON says, and a migration to the optimized
/// format and back keeps all of it.
@Suite struct LegacyEncoderSampleTests {
    static let samples = ["groups-and-certificates", "incognito-and-empty", "older-root-and-names"]

    static func expected(_ name: String) throws -> Any {
        try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: CLI.path("Fixtures/legacy-encoder/\(name).inspect.json"))))
    }

    static func inspect(_ path: String) throws -> Any {
        let result = try CLI.run(["inspect", path, "--format", "json", "--history"])
        #expect(result.status == 0, "\(result.stderr)")
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    }

    @Test(arguments: samples)
    func inspectMatchesTheEncodersJSON(name: String) throws {
        #expect(
            InspectCommandTests.mismatches(try Self.expected(name), try Self.inspect(CLI.path("Fixtures/legacy-encoder/\(name)"))) == [])
    }

    @Test(arguments: samples)
    func migrationThereAndBackKeepsEverything(name: String) throws {
        let profile = try MigrateCommandTests.copy(CLI.path("Fixtures/legacy-encoder/\(name)"))
        defer { try? FileManager.default.removeItem(atPath: (profile as NSString).deletingLastPathComponent) }
        let expected = MigrateCommandTests.asReadByChrome(try Self.expected(name))
        var asOptimized = expected
        asOptimized["sessions"] = (asOptimized["sessions"] as? [[String: Any]])?.map { session in
            var session = session
            session["format"] = "optimized"
            return session
        }
        #expect(try CLI.run(["migrate", profile, "--to", "optimized"]).status == 0)
        #expect(InspectCommandTests.mismatches(asOptimized, try Self.inspect(profile)) == [])
        #expect(try CLI.run(["validate", profile, "--strict"]).status == 0)
        #expect(try CLI.run(["migrate", profile, "--to", "legacy"]).status == 0)
        #expect(InspectCommandTests.mismatches(expected, try Self.inspect(profile)) == [])
        #expect(try CLI.run(["validate", profile, "--strict"]).status == 0)
    }
}
