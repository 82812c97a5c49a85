import Foundation
import Testing

/// `sessionctl validate` as a user runs it: exit statuses, the JSON contract, the text view, inputs of every kind.
@Suite struct ValidateCommandTests {
    static let session = "6A1E4C2B-9D0F-4B7A-8E3C-2F5D7B9A1C0E"

    static func gallery(_ name: String) -> String { CLI.path("Fixtures/gallery/\(name)") }

    static func json(_ result: CLIResult) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    @Test func exitStatuses() throws {
        #expect(try CLI.run(["validate", CLI.path("Fixtures/profiles/healthy")]).status == 0)
        #expect(try CLI.run(["validate", CLI.path("Fixtures/profiles/healthy"), "--strict"]).status == 0)
        #expect(try CLI.run(["validate", Self.gallery("tab-data-truncated")]).status == 1)
        #expect(try CLI.run(["validate", Self.gallery("active-index-out-of-range")]).status == 0)
        #expect(try CLI.run(["validate", Self.gallery("active-index-out-of-range"), "--strict"]).status == 1)
        #expect(try CLI.run(["validate", Self.gallery("temp-file"), "--strict"]).status == 0)
        let missing = try CLI.run(["validate", CLI.path("Fixtures/no-such-profile")])
        #expect(missing.status == 66)
        #expect(missing.stderr.hasPrefix("sessionctl: ") && missing.stderr.split(separator: "\n").count == 1)
        #expect(try CLI.run(["validate", CLI.path("Fixtures/profiles/healthy"), "--format", "xml"]).status == 64)
    }

    @Test func browserOptionNamesAFamilyAndAWrongOneIs65() throws {
        let profile = Self.gallery("healthy")
        #expect(try CLI.run(["validate", "--browser", "chrome-ios", profile]).status == 0)
        let unknown = try CLI.run(["validate", "--browser", "netscape", profile])
        #expect(unknown.status == 64 && unknown.stderr.contains("unknown browser 'netscape'"))
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Data("hello".utf8).write(to: URL(fileURLWithPath: "\(directory)/notes.txt"))
        let wrong = try CLI.run(["validate", "--browser", "chrome-ios", directory])
        #expect(wrong.status == 65 && wrong.stderr.contains("not a Chrome for iOS input (--browser chrome-ios)"), "\(wrong.stderr)")
        #expect(wrong.stderr.split(separator: "\n").count == 1)
    }

    @Test func jsonDocumentHasExactlyTheContractKeys() throws {
        let result = try CLI.run(["validate", Self.gallery("tab-id-duplicate"), "--format", "json"])
        #expect(result.status == 1)
        let document = try Self.json(result)
        #expect(Set(document.keys) == ["schema", "browser", "product", "productEvidence", "sessions", "findings", "summary"])
        #expect(document["product"] as? String == "chrome")
        #expect(document["schema"] as? String == "sessionctl.validate/1")
        #expect(document["browser"] as? String == "chrome-ios")
        let sessions = try #require(document["sessions"] as? [[String: Any]])
        #expect(sessions.count == (document["summary"] as? [String: Int])?["sessions"])
        for session in sessions { #expect(Set(session.keys) == ["id", "incognito", "format"]) }
        #expect(sessions.first?["id"] as? String == Self.session && sessions.first?["format"] as? String == "optimized")
        let findings = try #require(document["findings"] as? [[String: Any]])
        #expect(!findings.isEmpty)
        for finding in findings {
            #expect(
                Set(finding.keys) == ["rule", "severity", "session", "incognito", "tab", "file", "offset", "message", "chrome", "outcome"])
        }
        let duplicate = try #require(findings.first { $0["rule"] as? String == "tab-id-duplicate" })
        #expect(duplicate["severity"] as? String == "error")
        #expect(duplicate["chrome"] as? String == "tab-lost")
        #expect(duplicate["session"] as? String == Self.session)
        #expect(duplicate["incognito"] as? Bool == false)
        #expect(duplicate["tab"] as? Int == 3)
        #expect(duplicate["file"] as? String == "SessionStorage/\(Self.session)/session_metadata.pb")
        #expect(duplicate["offset"] is Int)
        let summary = try #require(document["summary"] as? [String: Int])
        #expect(
            summary == [
                "sessions": 2, "tabs": 6, "errors": findings.count { $0["severity"] as? String == "error" },
                "warnings": findings.count { $0["severity"] as? String == "warning" },
                "info": findings.count { $0["severity"] as? String == "info" }
            ])
    }

    @Test func nullsWhereThereIsNoTabOrOffset() throws {
        let document = try Self.json(try CLI.run(["validate", Self.gallery("metadata-missing"), "--format", "json"]))
        let finding = try #require((document["findings"] as? [[String: Any]])?.first)
        #expect(finding["tab"] is NSNull && finding["offset"] is NSNull)
    }

    @Test func textNamesRuleAndOutcomeWorstFirst() throws {
        let result = try CLI.run(["validate", Self.gallery("tab-id-negative")])
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let findings = lines.filter { $0.hasPrefix("    ") }
        #expect(findings.count == 2)
        #expect(findings[0].contains("tab-id-invalid [chrome: session-lost]"))
        #expect(findings[1].contains("unreferenced-entry [chrome: entry-deleted]"))
        #expect(lines.dropLast().last == "2 sessions, 6 tabs: 2 errors, 0 warnings, 0 info")
        #expect(lines.last?.hasPrefix("next: sessionctl repair --dry-run ") == true)
    }

    @Test func everyInputKindWithPathsRelativeToIt() throws {
        let profile = Self.gallery("incognito-tab-data-truncated")
        let storage = "\(profile)/OTR/SessionStorage"
        let cases: [(String, String)] = [
            (profile, "OTR/SessionStorage/\(Self.session)/00000014/data.pb"),
            (storage, "\(Self.session)/00000014/data.pb"),
            ("\(storage)/\(Self.session)", "00000014/data.pb"),
            ("\(storage)/\(Self.session)/00000014/data.pb", "data.pb")
        ]
        for (path, file) in cases {
            let result = try CLI.run(["validate", path, "--format", "json"])
            #expect(result.status == 1, "\(path)")
            let findings = try #require(try Self.json(result)["findings"] as? [[String: Any]])
            #expect(findings.count == 1, "\(path)")
            #expect(findings.first?["rule"] as? String == "tab-data-unparsable")
            #expect(findings.first?["incognito"] as? Bool == true, "\(path)")
            #expect(findings.first?["file"] as? String == file)
        }
        let metadata = try CLI.run(["validate", "\(Self.gallery("metadata-truncated"))/SessionStorage/\(Self.session)/session_metadata.pb"])
        #expect(metadata.status == 1)
        #expect(metadata.stdout.contains("metadata-unparsable [chrome: session-lost] session_metadata.pb at byte "))
    }

    @Test func validateChangesNothingOnDisk() throws {
        let out = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let copy = "\(out)/profile"
        try FileManager.default.copyItem(atPath: Self.gallery("tab-id-duplicate"), toPath: copy)
        try FileManager.default.createDirectory(
            atPath: "\(copy)/SessionStorage/\(Self.session)/0000abcd", withIntermediateDirectories: false)
        try Data("x".utf8).write(to: URL(fileURLWithPath: "\(copy)/SessionStorage/\(Self.session)/.dat.nosync0.tmp"))
        func snapshot() throws -> [String: Data] {
            let paths = FileManager.default.enumerator(atPath: copy)?.compactMap { $0 as? String } ?? []
            var result: [String: Data] = [:]
            for path in paths {
                var isDirectory: ObjCBool = false
                let exists = FileManager.default.fileExists(atPath: "\(copy)/\(path)", isDirectory: &isDirectory)
                result[path] = !exists || isDirectory.boolValue ? Data() : try Data(contentsOf: URL(fileURLWithPath: "\(copy)/\(path)"))
            }
            return result
        }
        let before = try snapshot()
        #expect(try CLI.run(["validate", copy]).status == 1)
        #expect(try snapshot() == before)
    }

    @Test func everyGalleryProfileExitsAsItsSeverityDemands() throws {
        let readme = try String(contentsOfFile: CLI.path("Fixtures/gallery/README.md"), encoding: .utf8)
        for line in readme.split(separator: "\n") where line.hasPrefix("| ") && !line.hasPrefix("| profile") && !line.hasPrefix("| ---") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            let result = try CLI.run(["validate", Self.gallery(cells[0]), "--strict"])
            #expect(result.stderr.isEmpty, "\(cells[0])")
            #expect(
                result.stdout.contains(cells[1] == "-" ? "0 errors, 0 warnings, 0 info" : "\(cells[1]) [chrome: \(cells[3])]"),
                "\(cells[0])")
            if ["error", "warning"].contains(cells[2]) { #expect(result.status == 1, "\(cells[0])") }
        }
    }
}

/// A damaged legacy file given alone is still a session to validate, not an unknown input.
@Suite struct ValidateLegacyFileTests {
    @Test func aZeroedSessionPlistGivenAlone() throws {
        let path = CLI.path("Fixtures/gallery/legacy-unparsable/Sessions/\(ValidateCommandTests.session)/session.plist")
        let result = try CLI.run(["validate", path, "--format", "json"])
        #expect(result.status == 1, "\(result.stderr)")
        let findings = try #require(try ValidateCommandTests.json(result)["findings"] as? [[String: Any]])
        #expect(findings.map { $0["rule"] as? String } == ["legacy-unparsable"])
        #expect(findings.first?["session"] as? String == ValidateCommandTests.session)
        #expect(findings.first?["file"] as? String == "session.plist")
    }

    @Test func aSessionsDirectoryIsLegacyEvenThoughItsSessionsAreDirectories() throws {
        let result = try CLI.run(["validate", CLI.path("Fixtures/gallery/legacy-selected-index/Sessions"), "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let findings = try #require(try ValidateCommandTests.json(result)["findings"] as? [[String: Any]])
        #expect(findings.map { $0["rule"] as? String } == ["legacy-selected-index-out-of-range"])
        #expect(findings.first?["file"] as? String == "\(ValidateCommandTests.session)/session.plist")
        let inspect = try CLI.run(["inspect", CLI.path("Fixtures/gallery/legacy-healthy/Sessions")])
        #expect(inspect.status == 0 && inspect.stdout.contains("(legacy): 4 tabs"), "\(inspect.stderr)")
    }
}
