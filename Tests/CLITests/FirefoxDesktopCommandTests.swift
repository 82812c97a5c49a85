import Foundation
import Testing

/// The commands on Firefox desktop profiles (Fixtures/firefox-desktop, written by Python's json
/// and lz4.block), as a user runs them.
@Suite struct FirefoxDesktopCommandTests {
    static let gallery = "Fixtures/firefox-desktop/gallery"

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// A copy of a gallery case; returns the copied profile.
    static func copy(_ name: String) throws -> String {
        let target = try CLI.temporaryDirectory("firefox-desktop") + "/profile"
        try FileManager.default.copyItem(atPath: CLI.path("\(gallery)/\(name)"), toPath: target)
        return target
    }

    /// Each case of the gallery is reported with its rules, and only the cases that lose something fail.
    @Test(arguments: [
        ("healthy", [String](), 0),
        ("old-plain-files", [String](), 0),
        ("session-file-skipped", ["session-file-skipped"], 1),
        ("json-cut", ["session-file-skipped"], 1),
        ("version-newer", ["session-file-skipped"], 1),
        ("session-files-none-load", ["session-file-damaged", "session-file-skipped", "session-files-none-load"], 1),
        ("size-lying", ["session-file-damaged"], 0),
        ("backup-cut", ["session-file-damaged"], 0),
        ("upgrade-backup-unread", ["upgrade-backup-unread"], 0),
        ("session-not-restored-at-launch", ["session-not-restored-at-launch"], 0)
    ])
    func validateNamesWhatFirefoxDoes(name: String, rules: [String], status: Int32) throws {
        let result = try CLI.run(["validate", CLI.path("\(Self.gallery)/\(name)"), "--format", "json"])
        #expect(result.status == status, "\(name): \(result.stdout)\(result.stderr)")
        let document = try Self.json(result.stdout)
        #expect(document["browser"] as? String == "firefox-desktop")
        let findings = try #require(document["findings"] as? [[String: Any]])
        #expect(findings.compactMap { $0["rule"] as? String } == rules, "\(name)")
        let sessions = try #require(document["sessions"] as? [[String: Any]])
        #expect(sessions.allSatisfy { $0["format"] as? String == "sessionstore" }, "\(sessions)")
        let text = try CLI.run(["validate", CLI.path("\(Self.gallery)/\(name)")])
        #expect(text.stdout.contains("next: sessionctl repair --dry-run") == (status == 1), "\(text.stdout)")
        #expect(rules.allSatisfy { text.stdout.contains("\($0) [firefox: ") }, "\(text.stdout)")
    }

    /// The plain files of old versions are read when no mozLz4 file loads, the clean one first.
    @Test func theOldPlainFilesAreReadInTheirOrder() throws {
        let result = try CLI.run(["validate", CLI.path("\(Self.gallery)/old-plain-files"), "--format", "json"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let summary = try #require(try Self.json(result.stdout)["summary"] as? [String: Any])
        #expect(summary["tabs"] as? Int == 3, "\(summary)")
        let inspect = try CLI.run(["inspect", CLI.path("\(Self.gallery)/old-plain-files")])
        #expect(inspect.stdout.contains("sessionstore.js#1 (sessionstore): 3 tabs"), "\(inspect.stdout)")
    }

    /// A file Firefox passes over says where its damage is and how many tabs that loses.
    @Test func aSkippedFileSaysWhereAndWhatItLoses() throws {
        let result = try CLI.run(["validate", CLI.path("\(Self.gallery)/session-file-skipped"), "--format", "json"])
        let finding = try #require((try Self.json(result.stdout)["findings"] as? [[String: Any]])?.first)
        #expect(finding["outcome"] as? String == "tab-lost")
        #expect(finding["file"] as? String == "sessionstore-backups/recovery.jsonlz4", "\(finding)")
        #expect(finding["offset"] is Int, "\(finding)")
        #expect((finding["message"] as? String ?? "").contains("losing 4 tabs"), "\(finding)")
        let cut = try CLI.run(["validate", CLI.path("\(Self.gallery)/json-cut"), "--format", "json"])
        let json = try #require((try Self.json(cut.stdout)["findings"] as? [[String: Any]])?.first)
        #expect((json["message"] as? String ?? "").contains("its JSON is damaged at byte 2600 of 2600"), "\(json)")
    }

    /// inspect lists the windows of every session file, the salvaged ones too: marked salvaged,
    /// with the place Firefox stops named (exit 1), as for Chromium desktop.
    @Test func inspectShowsEveryFilesTabs() throws {
        let result = try CLI.run(["inspect", CLI.path("\(Self.gallery)/session-file-skipped"), "--format", "json", "--history"])
        #expect(result.status == 1, "\(result.stderr)")
        let document = try Self.json(result.stdout)
        let sessions = try #require(document["sessions"] as? [[String: Any]])
        let tabs = Dictionary(
            uniqueKeysWithValues: sessions.compactMap { session -> (String, Int)? in
                guard let id = session["id"] as? String, let tabs = session["tabs"] as? [[String: Any]] else { return nil }
                return (id, tabs.count)
            })
        #expect(tabs["sessionstore-backups/recovery.baklz4#1"] == 8, "\(tabs)")
        #expect((tabs["sessionstore-backups/recovery.jsonlz4#1"] ?? 0) > 8, "\(tabs)")
        let errors = try #require(document["errors"] as? [[String: Any]])
        #expect(errors.count == 1 && (errors.first?["file"] as? String ?? "").hasSuffix("recovery.jsonlz4"), "\(errors)")
        #expect(errors.first?["offset"] is Int && (errors.first?["next"] as? String ?? "").contains("repair --dry-run"), "\(errors)")
        let salvaged = sessions.filter { ($0["id"] as? String ?? "").hasPrefix("sessionstore-backups/recovery.jsonlz4") }
            .flatMap { $0["tabs"] as? [[String: Any]] ?? [] }
        #expect(!salvaged.isEmpty && salvaged.allSatisfy { $0["salvaged"] as? Bool == true })
        // One damaged file alone, given by path: its tabs marked S, where Firefox stops named.
        let single = try CLI.run(["inspect", CLI.path("\(Self.gallery)/session-file-skipped/sessionstore-backups/recovery.jsonlz4")])
        #expect(single.status == 1 && single.stdout.contains("recovery.jsonlz4#1 (sessionstore)"), "\(single.stdout)\(single.stderr)")
        #expect(single.stdout.contains("salvaged past damage") && single.stdout.contains(" S [0]"), "\(single.stdout)")
    }

    /// Repair saves every tab Firefox would lose into sessionstore.jsonlz4: the dry run says
    /// exactly what the run leaves, the originals are set aside, unknown keys survive, and a
    /// second run changes nothing.
    @Test(arguments: [("session-file-skipped", 12), ("json-cut", 6), ("version-newer", 7), ("session-files-none-load", 5)])
    func repairSavesEveryTab(name: String, tabs: Int) throws {
        let profile = try Self.copy(name)
        defer { try? FileManager.default.removeItem(atPath: parentDirectory(profile)) }
        let before = Archives.listing(profile)
        let dry = try CLI.run(["repair", "--dry-run", profile, "--format", "json"])
        #expect(Archives.listing(profile) == before, "a dry run changed the profile")
        let planned = try Self.json(dry.stdout)
        #expect(planned["browser"] as? String == "firefox-desktop")
        #expect((planned["unrepaired"] as? [[String: Any]])?.isEmpty == true && dry.status == 0, "\(name): \(dry.stdout)\(dry.stderr)")
        let run = try CLI.run(["repair", profile])
        #expect(run.status == 0 && run.stdout.contains("result: the profile validates clean"), "\(name): \(run.stdout)\(run.stderr)")
        let inspect = try CLI.run(["inspect", "\(profile)/sessionstore.jsonlz4", "--format", "json"])
        let sessions = try #require(try Self.json(inspect.stdout)["sessions"] as? [[String: Any]])
        let written = sessions.reduce(0) { $0 + (($1["tabs"] as? [[String: Any]])?.count ?? 0) }
        #expect(written == tabs, "\(name): \(written) tabs written")
        // Unknown keys survive the rewrite.
        let out = "\(parentDirectory(profile))/written.json"
        let plain = try CLI.run(["decompress", "\(profile)/sessionstore.jsonlz4", "-o", out])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(try String(contentsOfFile: out, encoding: .utf8).contains("\"extData\":{\"kept\":\"an unknown key\"}"))
        // The originals are set aside with a manifest.
        let entries = Archives.listing("\(profile)/Backups/sessionstore").filter { !$0.contains("/") }
        #expect(entries.count == 1, "\(entries)")
        let again = try CLI.run(["repair", profile])
        #expect(again.status == 0 && again.stdout.contains("plan: nothing to change"), "\(again.stdout)")
    }

    /// A file given alone is examined whatever its name when its content is mozLz4 or a session document.
    @Test func aSessionFileIsRecognisedByContent() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let source = CLI.path("\(Self.gallery)/healthy/sessionstore.jsonlz4")
        try FileManager.default.copyItem(atPath: source, toPath: "\(root)/copy-of-session")
        let result = try CLI.run(["validate", "\(root)/copy-of-session", "--format", "json"])
        let browser = try Self.json(result.stdout)["browser"] as? String
        #expect(result.status == 0 && browser == "firefox-desktop", "\(result.stdout)\(result.stderr)")
    }
}

/// `decompress --redact`: a Firefox session file's JSON for a ticket, with nothing a user typed
/// or a site stored, and every URL and title redacted.
@Suite struct SessionstoreRedactionTests {
    @Test func redactionRemovesWhatIdentifiesTheUserAndKeepsTheShape() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let session = CLI.path("\(FirefoxDesktopCommandTests.gallery)/healthy/sessionstore.jsonlz4")
        let plain = try CLI.run(["decompress", session, "-o", "\(root)/plain.json"])
        let redacted = try CLI.run(["decompress", session, "-o", "\(root)/redacted.json", "--redact"])
        #expect(plain.status == 0 && redacted.status == 0, "\(redacted.stderr)")
        let before = try String(contentsOfFile: "\(root)/plain.json", encoding: .utf8)
        let after = try String(contentsOfFile: "\(root)/redacted.json", encoding: .utf8)
        #expect(before.contains("?tab=1") && before.contains("Tab 1") && before.contains("triggeringPrincipal_base64"))
        #expect(
            !after.contains("?tab=") && !after.contains("Tab 1") && !after.contains("triggeringPrincipal_base64"), "\(after.prefix(400))")
        #expect(after.contains("https://www.mozilla.org/REDACTED") && after.contains("\"title\":\"REDACTED\""))
        // The shape stays: the same windows and tabs, still a session sessionctl reads.
        let compressed = try CLI.run(["compress", "\(root)/redacted.json", "-o", "\(root)/sessionstore.jsonlz4"])
        #expect(compressed.status == 0, "\(compressed.stderr)")
        let inspect = try CLI.run(["inspect", "\(root)/sessionstore.jsonlz4"])
        #expect(inspect.status == 0 && inspect.stdout.contains("6 tabs"), "\(inspect.stdout)\(inspect.stderr)")
        // Anything else is refused, and nothing written.
        let gzip = try CLI.run(["compress", "\(root)/plain.json", "-o", "\(root)/plain.json.gz"])
        #expect(gzip.status == 0, "\(gzip.stderr)")
        let refused = try CLI.run(["decompress", "\(root)/plain.json.gz", "-o", "\(root)/out.json", "--redact"])
        #expect(refused.status == 65 && !FileManager.default.fileExists(atPath: "\(root)/out.json"), "\(refused.stderr)")
    }
}
