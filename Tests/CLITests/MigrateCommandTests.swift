import Foundation
import Testing

/// `sessionctl migrate` as a user runs it: the corpus's legacy sample both ways, dry runs, refusals.
@Suite struct MigrateCommandTests {
    /// A writable copy of a directory, removed by the caller.
    static func copy(_ source: String) throws -> String {
        let directory = try CLI.temporaryDirectory("migrate")
        let profile = "\(directory)/profile"
        try FileManager.default.copyItem(atPath: source, toPath: profile)
        let files = FileManager.default.enumerator(atPath: profile)?.compactMap { $0 as? String } ?? []
        for path in [""] + files { try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: "\(profile)/\(path)") }
        return profile
    }

    static func files(_ root: String) -> [String: Data] {
        var result: [String: Data] = [:]
        for path in FileManager.default.enumerator(atPath: root)?.compactMap({ $0 as? String }) ?? [] {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: "\(root)/\(path)", isDirectory: &isDirectory), !isDirectory.boolValue {
                result[path] = FileManager.default.contents(atPath: "\(root)/\(path)")
            }
        }
        return result
    }

    static func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

    @Test func corpusLegacySampleToOptimizedAndBack() throws {
        let corpus = CLI.corpus
        let profile = try Self.copy("\(corpus)/legacy-basic")
        defer { try? FileManager.default.removeItem(atPath: (profile as NSString).deletingLastPathComponent) }
        let expected = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(corpus)/legacy-basic.inspect.json")))
        let asRead = Self.asReadByChrome(expected)
        var asOptimized = asRead
        asOptimized["sessions"] = (asOptimized["sessions"] as? [[String: Any]])?.map { session in
            var session = session
            session["format"] = "optimized"
            return session
        }

        let forward = try CLI.run(["migrate", profile, "--to", "optimized"])
        #expect(forward.status == 0, "\(forward.stderr)")
        let optimized = try CLI.run(["inspect", profile, "--format", "json", "--history"])
        #expect(InspectCommandTests.mismatches(asOptimized, try Self.json(optimized.stdout)) == [])
        #expect(try CLI.run(["validate", profile, "--strict"]).status == 0)

        let back = try CLI.run(["migrate", profile, "--to", "legacy"])
        #expect(back.status == 0, "\(back.stderr)")
        let legacy = try CLI.run(["inspect", profile, "--format", "json", "--history"])
        #expect(InspectCommandTests.mismatches(asRead, try Self.json(legacy.stdout)) == [])
        #expect(try CLI.run(["validate", profile, "--strict"]).status == 0)

        let entries = try CLI.run(["aside", "list", profile, "--format", "json"])
        #expect((try Self.json(entries.stdout) as? [String: Any])?["entries"].map { ($0 as? [Any])?.count } == 4)
    }

    /// An inspect document of legacy sessions as Chrome's legacy reader reads them: a window with
    /// tabs and no selection selects tab 0, and a missing last-active time is the creation time
    /// (crw_session_storage.mm, session_window_ios.mm).
    static func asReadByChrome(_ document: Any) -> [String: Any] {
        var read = document as? [String: Any] ?? [:]
        read["sessions"] = (read["sessions"] as? [[String: Any]])?.map { session in
            var session = session
            let tabs = session["tabs"] as? [[String: Any]] ?? []
            if session["activeIndex"] as? Int == -1, !tabs.isEmpty { session["activeIndex"] = 0 }
            session["tabs"] = tabs.map { tab in
                var tab = tab
                if tab["lastActiveTime"] is NSNull { tab["lastActiveTime"] = tab["creationTime"] }
                return tab
            }
            return session
        }
        return read
    }

    @Test func dryRunChangesNothing() throws {
        let profile = try Self.copy(CLI.path("Fixtures/profiles/legacy"))
        defer { try? FileManager.default.removeItem(atPath: (profile as NSString).deletingLastPathComponent) }
        let before = Self.files(profile)
        let text = try CLI.run(["migrate", profile, "--to", "optimized", "--dry-run"])
        #expect(text.status == 0)
        #expect(text.stdout.contains("convert 3 sessions from legacy to optimized"))
        let json = try CLI.run(["migrate", profile, "--to", "optimized", "--dry-run", "--format", "json"])
        let document = try Self.json(json.stdout) as? [String: Any]
        #expect(document?["schema"] as? String == "sessionctl.migrate/1")
        #expect(document?["browser"] as? String == "chrome-ios")
        #expect(document?["dryRun"] as? Bool == true)
        #expect(Self.files(profile) == before)
    }

    @Test func alreadyInTheTargetFormatChangesNothing() throws {
        let profile = try Self.copy(CLI.path("Fixtures/profiles/healthy"))
        defer { try? FileManager.default.removeItem(atPath: (profile as NSString).deletingLastPathComponent) }
        let before = Self.files(profile)
        let result = try CLI.run(["migrate", profile, "--to", "optimized"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("nothing to do"))
        #expect(Self.files(profile) == before)
    }

    @Test func refusalsAndTheirStatuses() throws {
        let profile = try Self.copy(CLI.path("Fixtures/profiles/legacy"))
        defer { try? FileManager.default.removeItem(atPath: (profile as NSString).deletingLastPathComponent) }
        let session = try #require(try FileManager.default.contentsOfDirectory(atPath: "\(profile)/Sessions").sorted().first)
        #expect(try CLI.run(["migrate", "\(profile)/Sessions/\(session)", "--to", "optimized"]).status == 64)
        #expect(try CLI.run(["migrate", profile, "--to", "sideways"]).status == 64)
        #expect(try CLI.run(["migrate", "\(profile)/nonexistent", "--to", "optimized"]).status == 66)
        let file = "\(profile)/Sessions/\(session)/session.plist"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        try bytes.prefix(bytes.count / 3).write(to: URL(fileURLWithPath: file))
        let before = Self.files(profile)
        let damaged = try CLI.run(["migrate", profile, "--to", "optimized"])
        #expect(damaged.status == 65)
        #expect(damaged.stderr.contains("damaged at byte"))
        #expect(damaged.stderr.split(separator: "\n").count == 1)
        #expect(Self.files(profile).filter { !$0.key.hasSuffix(".sessionctl.lock") } == before)
    }
}
