import Foundation
import Testing

/// Firefox's session files at the edges of what Firefox itself reads: nesting deeper than any
/// limit of ours, files far larger than their compressed size, headers that lie, and repair that
/// must never leave fewer tabs than Firefox restores.
@Suite struct FirefoxEdgeCaseTests {
    /// A Firefox desktop session document of `tabs` tabs of one window; the first tab carries
    /// `extra` (JSON text) under a key Firefox does not know.
    static func sessionJSON(tabs: Int, extra: String = "null", version: Int = 1, urls: [String]? = nil) -> String {
        let urls = urls ?? (0..<tabs).map { "https://example.com/\($0)" }
        let tabTexts = urls.enumerated().map { index, url in
            let unknown = index == 0 ? ",\"extData\":{\"deep\":\(extra)}" : ""
            return "{\"entries\":[{\"url\":\"\(url)\",\"title\":\"tab \(index)\"}],\"index\":1\(unknown)}"
        }
        return
            "{\"version\":[\"sessionrestore\",\(version)],\"windows\":[{\"tabs\":[\(tabTexts.joined(separator: ","))],\"selected\":1}],\"selectedWindow\":1,\"session\":{\"state\":\"running\"}}"
    }

    /// Writes `json` as the mozLz4 file `name` of `profile` (through `compress`).
    static func write(_ json: String, as name: String, in profile: String) throws {
        let plain = profile + "/../plain-\(UUID().uuidString).json"
        try FileManager.default.createDirectory(
            atPath: (profile as NSString).appendingPathComponent((name as NSString).deletingLastPathComponent),
            withIntermediateDirectories: true)
        try Data(json.utf8).write(to: URL(fileURLWithPath: plain))
        let result = try CLI.run(["compress", plain, "-o", "\(profile)/\(name)"])
        #expect(result.status == 0, "\(result.stderr)")
        try FileManager.default.removeItem(atPath: plain)
    }

    static func profile(_ label: String) throws -> String {
        let profile = try CLI.temporaryDirectory(label) + "/profile"
        try FileManager.default.createDirectory(atPath: profile, withIntermediateDirectories: true)
        return profile
    }

    /// Nesting as deep as Firefox takes (SpiderMonkey's JSON.parse has no limit): the session is
    /// whole, every tab is read, and repair has nothing to do (it replaced 8 tabs with 1).
    @Test(arguments: [250, 100_000])
    func aDeeplyNestedUnknownValueIsValidAsFirefoxReadsIt(depth: Int) throws {
        let profile = try Self.profile("firefox-deep")
        defer { try? FileManager.default.removeItem(atPath: parentDirectory(profile)) }
        let deep = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        try Self.write(Self.sessionJSON(tabs: 8, extra: deep), as: "sessionstore.jsonlz4", in: profile)
        let before = try Data(contentsOf: URL(fileURLWithPath: "\(profile)/sessionstore.jsonlz4"))
        let validate = try CLI.run(["validate", profile, "--format", "json"])
        #expect(validate.status == 0, "\(validate.stdout)\(validate.stderr)")
        let summary = try #require(try FirefoxDesktopCommandTests.json(validate.stdout)["summary"] as? [String: Any])
        #expect(summary["tabs"] as? Int == 8, "\(summary)")
        let inspect = try CLI.run(["inspect", profile])
        #expect(inspect.status == 0 && inspect.stdout.contains("8 tabs") && !inspect.stdout.contains(" S ["), "\(inspect.stdout)")
        let repair = try CLI.run(["repair", profile])
        #expect(repair.status == 0, "\(repair.stdout)\(repair.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(profile)/sessionstore.jsonlz4")) == before)
    }

    /// Firefox for iOS reads its windows with Foundation, which takes 512 containers nested and
    /// refuses the 513th: a window file is read or damaged exactly there.
    @Test(arguments: [(300, true), (512, true), (513, false)])
    func aFirefoxIOSWindowIsNestedAsDeepAsFoundationTakes(depth: Int, loads: Bool) throws {
        let directory = try CLI.temporaryDirectory("firefox-ios-deep")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let profile = directory + "/profile"
        try FileManager.default.copyItem(atPath: CLI.path("Fixtures/firefox-ios/gallery/healthy"), toPath: profile)
        let windows = profile + "/profile.profile/window-data"
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: windows).first)
        let text = try String(contentsOfFile: "\(windows)/\(name)", encoding: .utf8)
        // The window's object is the first container: the value adds the rest.
        let nested = String(repeating: "[", count: depth - 1) + String(repeating: "]", count: depth - 1)
        try Data(("{\"x\":\(nested)," + text.dropFirst()).utf8).write(to: URL(fileURLWithPath: "\(windows)/\(name)"))
        let result = try CLI.run(["validate", profile])
        #expect(result.stdout.contains("window-file-unparsable") == !loads, "\(depth): \(result.stdout)")
        #expect(result.stdout.contains("nested too deeply") == !loads, "\(depth): \(result.stdout)")
    }

    /// Repair never leaves the live session fewer tabs than Firefox restores from what it
    /// replaces: here Firefox loads a file of three tabs that the merge would make two.
    @Test func repairRefusesToShrinkTheSessionFirefoxRestores() throws {
        let profile = try Self.profile("firefox-shrink")
        defer { try? FileManager.default.removeItem(atPath: parentDirectory(profile)) }
        // The clean file is passed over (a newer version) and holds a tab the others lack.
        try Self.write(
            Self.sessionJSON(tabs: 2, version: 2, urls: ["https://a.example/", "https://b.example/"]), as: "sessionstore.jsonlz4",
            in: profile)
        try Self.write(
            Self.sessionJSON(tabs: 3, urls: Array(repeating: "https://a.example/", count: 3)),
            as: "sessionstore-backups/recovery.jsonlz4", in: profile)
        let validate = try CLI.run(["validate", profile])
        #expect(validate.status == 1, "\(validate.stdout)")
        for arguments in [["repair", "--dry-run", profile], ["repair", profile]] {
            let result = try CLI.run(arguments)
            #expect(result.status == 65, "\(arguments): \(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains("would hold 2 tabs where the browser restores 3"), "\(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: "\(profile)/Backups"))
    }

    /// A header that gives more than sessionctl decodes, over a small block holding whole tabs,
    /// is read as Firefox reads it: the block's bytes, within the header's size.
    @Test func aHeaderGivingMoreThanTheLimitOverASmallBlockIsRead() throws {
        let profile = try Self.profile("firefox-header")
        defer { try? FileManager.default.removeItem(atPath: parentDirectory(profile)) }
        try Self.write(Self.sessionJSON(tabs: 8), as: "sessionstore.jsonlz4", in: profile)
        let path = "\(profile)/sessionstore.jsonlz4"
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let declared = UInt32(1 << 30) + 5
        for index in 0..<4 { bytes[8 + index] = UInt8(truncatingIfNeeded: declared >> (8 * UInt32(index))) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let result = try CLI.run(["validate", profile, "--format", "json"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let summary = try #require(try FirefoxDesktopCommandTests.json(result.stdout)["summary"] as? [String: Any])
        #expect(summary["tabs"] as? Int == 8, "\(summary)")
    }

    /// decompress --max-size below a valid file's size names the limit, not damage; compress to
    /// a name Firefox reads as JSON refuses what is not JSON.
    @Test func theSizeLimitAndJSONNamesAreSaidAsSuch() throws {
        let directory = try CLI.temporaryDirectory("mozlz4-limits")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Self.write(Self.sessionJSON(tabs: 50), as: "sessionstore.jsonlz4", in: directory)
        let decompress = try CLI.run(["decompress", "\(directory)/sessionstore.jsonlz4", "--max-size", "100", "-o", "\(directory)/out.json"]
        )
        #expect(decompress.status == 65, "\(decompress.stderr)")
        #expect(decompress.stderr.contains("--max-size") && !decompress.stderr.contains("damaged"), "\(decompress.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(directory)/out.json"))
        try Data("not json\n".utf8).write(to: URL(fileURLWithPath: "\(directory)/notes.txt"))
        let compress = try CLI.run(["compress", "\(directory)/notes.txt", "-o", "\(directory)/x.jsonlz4"])
        #expect(compress.status == 65 && compress.stderr.contains("not JSON"), "\(compress.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(directory)/x.jsonlz4"))
        let other = try CLI.run(["compress", "\(directory)/notes.txt", "-o", "\(directory)/notes.mozlz4"])
        #expect(other.status == 0, "\(other.stderr)")
    }

    /// Validate, inspect, repair --dry-run and report hold one large file's JSON at a time: five
    /// files of 40 MB of JSON each (a few hundred kilobytes compressed) stay well under their sum.
    @Test func memoryIsBoundedPerCommandNotPerFile() throws {
        let profile = try Self.profile("firefox-memory")
        defer { try? FileManager.default.removeItem(atPath: parentDirectory(profile)) }
        let blob = "\"" + String(repeating: "a", count: 40 << 20) + "\""
        try Self.write(Self.sessionJSON(tabs: 3, extra: blob), as: "sessionstore.jsonlz4", in: profile)
        for name in ["recovery.jsonlz4", "recovery.baklz4", "previous.jsonlz4", "upgrade.jsonlz4-20240101000000"] {
            try FileManager.default.createDirectory(atPath: "\(profile)/sessionstore-backups", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: "\(profile)/sessionstore.jsonlz4", toPath: "\(profile)/sessionstore-backups/\(name)")
        }
        let measure = """
            import resource, subprocess, sys
            subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
            """
        let report = parentDirectory(profile) + "/report.html"
        for command in [["validate"], ["inspect"], ["repair", "--dry-run"], ["report", "-o", report]] {
            let result = try CLI.runProgram("/usr/bin/python3", ["-c", measure, CLI.binary] + command + [profile], timeout: 300)
            let kilobytes = try #require(Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "\(result.stderr)")
            // One file's JSON (40 MB) and the reading around it; the five together are 200 MB.
            #expect(kilobytes < 150_000, "\(command): \(kilobytes) KB at most resident")
        }
    }
}
