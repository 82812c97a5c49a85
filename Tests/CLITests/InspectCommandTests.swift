import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `sessionctl inspect` and `import` as a user runs them.
@Suite struct InspectCommandTests {
    /// Compares `expected` against `actual`: every key of `expected` must be present with an equal value.
    static func mismatches(_ expected: Any, _ actual: Any, at path: String = "") -> [String] {
        switch (expected, actual) {
        case (let e as [String: Any], let a as [String: Any]):
            return e.flatMap { key, value in
                a[key].map { mismatches(value, $0, at: path + "." + key) } ?? ["missing \(path).\(key)"]
            }
        case (let e as [Any], let a as [Any]):
            guard e.count == a.count else { return ["\(path): \(e.count) elements, got \(a.count)"] }
            return zip(e, a).enumerated().flatMap { mismatches($1.0, $1.1, at: "\(path)[\($0)]") }
        default:
            return (expected as? NSObject)?.isEqual(actual) == true ? [] : ["\(path): expected \(expected), got \(actual)"]
        }
    }

    @Test(arguments: ["basic", "groups", "legacy-basic"])
    func corpusJSONMatches(name: String) throws {
        let corpus = CLI.corpus
        let result = try CLI.run(["inspect", "\(corpus)/\(name)", "--format", "json", "--history"])
        #expect(result.status == 0, "\(result.stderr)")
        let expected = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(corpus)/\(name).inspect.json")))
        let actual = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        #expect(Self.mismatches(expected, actual) == [])
    }

    @Test(arguments: ["basic", "groups"])
    func importWritesCorpusBytes(name: String) throws {
        let corpus = CLI.corpus
        let out = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try CLI.run(["import", "\(corpus)/\(name).inspect.json", "--out", out])
        #expect(result.status == 0, "\(result.stderr)")
        let root = "\(corpus)/\(name)"
        let files = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
        let protoFiles = files.filter { $0.hasSuffix(".pb") }
        #expect(!protoFiles.isEmpty)
        for file in protoFiles {
            let original = try Data(contentsOf: URL(fileURLWithPath: "\(root)/\(file)"))
            let written = try Data(contentsOf: URL(fileURLWithPath: "\(out)/\(file)"))
            #expect(original == written, "\(file) differs")
        }
    }

    @Test func importRefusesExistingSession() throws {
        let out = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let json = CLI.path("Fixtures/profiles/healthy.json")
        #expect(try CLI.run(["import", json, "--out", out]).status == 0)
        let metadata = "\(out)/SessionStorage/E9D8C7B6-A5F4-4321-8765-0FEDCBA98765/session_metadata.pb"
        let before = try Data(contentsOf: URL(fileURLWithPath: metadata))
        // The same document again: the sessions are there as it writes them, nothing to do.
        let same = try CLI.run(["import", json, "--out", out])
        #expect(same.status == 0, "\(same.stderr)")
        #expect(!same.stdout.contains("wrote"))
        // Another document with the same session: refused, nothing written.
        let changed = try Self.changedDocument(json, in: out)
        defer { try? FileManager.default.removeItem(atPath: changed) }
        let again = try CLI.run(["import", changed, "--out", out])
        #expect(again.status == 73)
        #expect(again.stderr.hasPrefix("sessionctl: ") && again.stderr.split(separator: "\n").count == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: metadata)) == before)
    }

    /// A copy of the document at `json` with its first tab title changed, written beside `directory`.
    static func changedDocument(_ json: String, in directory: String) throws -> String {
        var text = try String(contentsOfFile: json, encoding: .utf8)
        if let range = text.range(of: "\"title\": \"") { text.replaceSubrange(range, with: "\"title\": \"Changed ") }
        let path = directory + ".changed.json"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func importThenInspectRoundTrips() throws {
        let out = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let json = CLI.path("Fixtures/profiles/healthy.json")
        #expect(try CLI.run(["import", json, "--out", out]).status == 0)
        let inspected = try CLI.run(["inspect", out, "--format", "json", "--history"])
        let expected = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json)))
        let actual = try JSONSerialization.jsonObject(with: Data(inspected.stdout.utf8))
        #expect(Self.mismatches(expected, actual) == [])
        #expect(Self.mismatches(actual, expected) == [])
    }

    @Test func missingPathIs66AndGarbageIs65() throws {
        let missing = try CLI.run(["inspect", "/nonexistent/profile"])
        #expect(missing.status == 66)
        #expect(missing.stderr.hasPrefix("sessionctl: /nonexistent/profile:"))
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let session = "\(dir)/SessionStorage/S"
        try FileManager.default.createDirectory(atPath: session, withIntermediateDirectories: true)
        try Data([0x0a, 0xff, 0xff, 0x03]).write(to: URL(fileURLWithPath: "\(session)/session_metadata.pb"))
        let damaged = try CLI.run(["inspect", dir])
        #expect(damaged.status == 65)
        #expect(damaged.stderr.contains("damaged at byte"))
        let notJSON = "\(dir)/bad.json"
        try Data("{\"schema\": ".utf8).write(to: URL(fileURLWithPath: notJSON))
        #expect(try CLI.run(["import", notJSON, "--out", "\(dir)/out"]).status == 65)
        #expect(try CLI.run(["inspect"]).status == 64)
    }

    @Test func redactKeepsSchemeAndHost() throws {
        let result = try CLI.run(["inspect", CLI.path("Fixtures/profiles/healthy"), "--history", "--redact", "--format", "json"])
        #expect(result.status == 0)
        #expect(!result.stdout.contains("/world/2026"))
        #expect(!result.stdout.contains("Gift ideas"))
        #expect(result.stdout.contains("https://news.example.org/REDACTED"))
    }

    @Test(.enabled(if: CLI.hasStrace, "strace is not installed (apt-get install strace)"))
    func inspectWithoutHistoryOpensNoDataFile() throws {
        let profile = CLI.path("Fixtures/profiles/healthy")
        let lazy = try CLI.runProgram("/usr/bin/strace", ["-f", "-e", "trace=open,openat", CLI.binary, "inspect", profile])
        #expect(lazy.status == 0)
        #expect(lazy.stderr.contains("session_metadata.pb"))
        #expect(!lazy.stderr.contains("/data.pb"))
        let full = try CLI.runProgram("/usr/bin/strace", ["-f", "-e", "trace=open,openat", CLI.binary, "inspect", profile, "--history"])
        #expect(full.stderr.contains("/data.pb"))
    }
}

@Suite struct HostileInputTests {
    @Test func aFIFOInPlaceOfMetadataDoesNotHang() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let session = "\(dir)/SessionStorage/S"
        try FileManager.default.createDirectory(atPath: session, withIntermediateDirectories: true)
        #expect(mkfifo("\(session)/session_metadata.pb", 0o644) == 0)
        let result = try CLI.run(["inspect", dir])
        #expect(result.status == 66)
        #expect(result.stderr.contains("not a regular file"))
    }

    @Test func aSymlinkLoopIsAnErrorNotAHang() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createSymbolicLink(atPath: "\(dir)/loop", withDestinationPath: "\(dir)/loop")
        let result = try CLI.run(["inspect", "\(dir)/loop"])
        #expect(result.status == 66)
    }

    @Test func truncationsOfEveryLengthGiveContractStatuses() throws {
        let source = CLI.path("Fixtures/profiles/healthy/SessionStorage/7A3F0C2E-1B4D-4E8F-9A6B-5C2D1E0F3A4B/session_metadata.pb")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: source))
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let session = "\(dir)/SessionStorage/S"
        try FileManager.default.createDirectory(atPath: session, withIntermediateDirectories: true)
        for length in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 40)) {
            try bytes.prefix(length).write(to: URL(fileURLWithPath: "\(session)/session_metadata.pb"))
            let result = try CLI.run(["inspect", dir, "--format", "json"])
            #expect([0, 65].contains(result.status), "length \(length): \(result.status) \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count <= 1)
        }
    }
}

@Suite struct ImportReplaceTests {
    @Test func replaceSetsTheExistingSessionAsideFirst() throws {
        let out = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let json = CLI.path("Fixtures/profiles/healthy.json")
        #expect(try CLI.run(["import", json, "--out", out]).status == 0)
        let metadata = "\(out)/SessionStorage/E9D8C7B6-A5F4-4321-8765-0FEDCBA98765/session_metadata.pb"
        let before = try Data(contentsOf: URL(fileURLWithPath: metadata))
        let changed = try InspectCommandTests.changedDocument(json, in: out)
        defer { try? FileManager.default.removeItem(atPath: changed) }
        let again = try CLI.run(["import", changed, "--out", out, "--replace"])
        #expect(again.status == 0, "\(again.stderr)")
        // The session the changed document differs in is set aside and written; the other,
        // already there as the document has it, is left alone.
        #expect(again.stdout.contains("set aside 7A3F0C2E-1B4D-4E8F-9A6B-5C2D1E0F3A4B@"))
        #expect(!again.stdout.contains("set aside E9D8C7B6-A5F4-4321-8765-0FEDCBA98765@"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: metadata)) == before)
        let listed = try CLI.run(["aside", "list", out, "--format", "json"])
        #expect(listed.stdout.contains("replaced by sessionctl import"))
        let backups = FileManager.default.enumerator(atPath: "\(out)/Backups")?.compactMap { $0 as? String } ?? []
        #expect(backups.contains { $0.hasSuffix("E9D8C7B6-A5F4-4321-8765-0FEDCBA98765") == false && $0.hasSuffix("session_metadata.pb") })
    }
}
