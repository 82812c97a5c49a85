import Foundation
import Testing

/// The commands on Chromium desktop profiles (Fixtures/chromium-desktop: SNSS files written by an
/// independent Python encoder), as a user runs them, held to the gallery's table and to what
/// `read_snss.py`, a reader of Chrome's selection and replay written apart, says Chrome restores.
@Suite struct ChromiumDesktopCommandTests {
    static let gallery = "Fixtures/chromium-desktop/gallery"

    /// One line of the gallery's table.
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var rule: String
        var severity: String
        var chrome: String
        var description: String { name }
    }

    /// The table of gallery/README.md.
    static let cases: [Case] = {
        let text = (try? String(contentsOfFile: CLI.path("\(gallery)/README.md"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 6, !cells[1].isEmpty, cells[1] != "case", !cells[1].hasPrefix("---") else { return nil }
            return Case(name: cells[1], rule: cells[2], severity: cells[3], chrome: cells[4])
        }
    }()

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// A copy of a gallery case; returns the copied profile.
    static func copy(_ name: String) throws -> String {
        let target = try CLI.temporaryDirectory("chromium-desktop") + "/Default"
        try FileManager.default.copyItem(atPath: CLI.path("\(gallery)/\(name)"), toPath: target)
        return target
    }

    /// What an interrupted rewrite left in `Sessions/` is settled before anything is planned: a
    /// temporary file removed, the session file a write was replacing (its rename undone by a
    /// power loss) put back.
    @Test func whatAnInterruptedRewriteLeftIsSwept() throws {
        let profile = try Self.copy("healthy")
        defer { try? FileManager.default.removeItem(atPath: parentDirectory(profile)) }
        let sessions = "\(profile)/Sessions"
        let file = try #require(try FileManager.default.contentsOfDirectory(atPath: sessions).first { $0.hasPrefix("Session_") })
        try FileManager.default.moveItem(atPath: "\(sessions)/\(file)", toPath: "\(sessions)/.sessionctl-old.\(file)")
        try Data("half".utf8).write(to: URL(fileURLWithPath: "\(sessions)/.sessionctl-tmp.Session_13400000000000001.1.1"))
        let before = try FileManager.default.contentsOfDirectory(atPath: sessions).filter { !$0.hasPrefix(".") }
        let run = try CLI.run(["repair", profile])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(
            run.stdout.contains("Sessions/.sessionctl-old.\(file)") || run.stdout.contains("put Sessions/\(file) back"), "\(run.stdout)")
        #expect(run.stdout.contains("removed Sessions/.sessionctl-tmp.Session_13400000000000001.1.1"), "\(run.stdout)")
        let after = try FileManager.default.contentsOfDirectory(atPath: sessions).sorted()
        #expect(after == (before + [file]).sorted(), "\(after)")
        #expect(try CLI.run(["validate", profile]).status == 0)
    }

    /// What `read_snss.py` says Chrome restores from a profile: each window's tab URLs.
    static func chromeRestores(_ profile: String) throws -> [[String]] {
        let result = try CLI.runProgram("/usr/bin/env", ["python3", CLI.path("Fixtures/chromium-desktop/read_snss.py"), profile])
        #expect(result.status == 0, "\(result.stderr)")
        let current = try #require(try json(result.stdout)["current"] as? [String: Any])
        return current["windows"] as? [[String]] ?? []
    }

    @Test func theTableIsRead() {
        #expect(Self.cases.count == 15)
    }

    /// Each case is reported with its rule, severity and Chrome's outcome; errors fail.
    @Test(arguments: cases)
    func validateNamesWhatChromeDoes(_ entry: Case) throws {
        let result = try CLI.run(["validate", CLI.path("\(Self.gallery)/\(entry.name)"), "--format", "json"])
        #expect(result.status == (entry.severity == "error" ? 1 : 0), "\(entry.name): \(result.stdout)\(result.stderr)")
        let document = try Self.json(result.stdout)
        #expect(document["browser"] as? String == "chromium-desktop")
        let findings = try #require(document["findings"] as? [[String: Any]])
        if entry.rule == "-" {
            #expect(findings.isEmpty, "\(findings)")
            return
        }
        #expect(Set(findings.compactMap { $0["rule"] as? String }) == [entry.rule], "\(entry.name): \(findings)")
        #expect(findings.first?["severity"] as? String == entry.severity)
        #expect(findings.first?["outcome"] as? String == entry.chrome, "\(findings)")
    }

    /// Salvage reads past the first bad record and marks what it reads there, in every output.
    @Test func salvagedTabsAreMarked() throws {
        let profile = CLI.path("\(Self.gallery)/record-size-zero")
        let json = try CLI.run(["inspect", profile, "--format", "json"])
        let sessions = try #require(try Self.json(json.stdout)["sessions"] as? [[String: Any]])
        let tabs = sessions.flatMap { $0["tabs"] as? [[String: Any]] ?? [] }
        #expect(tabs.count == 8)
        let salvaged = tabs.filter { $0["salvaged"] as? Bool == true }.compactMap { $0["url"] as? String }
        #expect(salvaged == ["https://example.org/record-size-zero/8"], "\(salvaged)")
        let text = try CLI.run(["inspect", profile])
        #expect(text.stdout.contains("      S [5] #1022 record-size-zero tab 8"), "\(text.stdout)")
        // Chrome itself stops at the damage: tab 8 is not among what it restores.
        #expect(try Self.chromeRestores(profile).joined().count == 7)
        // A file cut in the middle of a navigation: what is whole of it is read.
        let cut = try CLI.run(["inspect", CLI.path("\(Self.gallery)/record-past-end"), "--format", "json"])
        #expect(cut.stdout.contains("\"url\": \"https://example.org/record-past-end/8\""), "\(cut.stdout)")
    }

    /// Repair writes a Session_ file Chrome takes, holding every tab salvage reads, sets the
    /// originals aside outside Sessions/, leaves the profile clean, and a second run does nothing.
    @Test(arguments: [
        "record-size-zero", "record-past-end", "command-unparsable", "unknown-command", "tab-without-window", "window-without-type",
        "version-1", "legacy-names"
    ])
    func repairSavesWhatChromeWouldLose(_ name: String) throws {
        let profile = try Self.copy(name)
        defer { try? FileManager.default.removeItem(atPath: parentDirectory(profile)) }
        let before = try CLI.run(["inspect", profile, "--format", "json"])
        // The file repair salvages: the Session_ file (the legacy Current Session when no other is there).
        let source = name == "legacy-names" ? "Current Session#" : "Sessions/"
        let readable = Set(
            try #require(try Self.json(before.stdout)["sessions"] as? [[String: Any]]).filter {
                ($0["id"] as? String ?? "").hasPrefix(source)
            }
            .flatMap { $0["tabs"] as? [[String: Any]] ?? [] }.compactMap { $0["url"] as? String })
        let dryRun = try CLI.run(["repair", profile, "--dry-run"])
        #expect(dryRun.status == 0, "\(dryRun.stdout)\(dryRun.stderr)")
        let run = try CLI.run(["repair", profile])
        #expect(run.status == 0, "\(name): \(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("result: the profile validates clean"), "\(run.stdout)")
        let plan = { (text: String) in
            text.components(separatedBy: "\n\n").first?.replacingOccurrences(of: " (dry run, nothing is changed)", with: "")
        }
        #expect(plan(dryRun.stdout) == plan(run.stdout))
        let restored = Set(try Self.chromeRestores(profile).joined())
        #expect(restored == readable, "\(name): Chrome restores \(restored.sorted()), salvage read \(readable.sorted())")
        let backups = try FileManager.default.subpathsOfDirectory(atPath: profile + "/Backups")
        #expect(backups.contains { $0.hasSuffix("manifest.json") }, "\(backups)")
        let again = try CLI.run(["repair", profile])
        #expect(again.status == 0 && !again.stdout.contains("wrote"), "\(again.stdout)")
        let validate = try CLI.run(["validate", profile, "--format", "json"])
        let findings = try #require(try Self.json(validate.stdout)["findings"] as? [[String: Any]])
        #expect(findings.allSatisfy { $0["severity"] as? String != "error" }, "\(findings)")
    }

    /// A Tabs_ file's closed tabs and windows are shown, newest first, beside the open windows.
    @Test func closedTabsAndWindowsAreShown() throws {
        let result = try CLI.run(["inspect", CLI.path("\(Self.gallery)/healthy"), "--format", "json"])
        let sessions = try #require(try Self.json(result.stdout)["sessions"] as? [[String: Any]])
        let closed = try #require(sessions.first { ($0["id"] as? String ?? "").hasPrefix("Sessions/Tabs_") })
        #expect((closed["tabs"] as? [Any])?.isEmpty == true)
        let tabs = try #require(closed["closedTabs"] as? [[String: Any]])
        #expect(tabs.map { $0["url"] as? String } == ["https://example.org/healthy/closed/1"])
        let windows = try #require(closed["closedWindows"] as? [[String: Any]])
        #expect(windows.count == 1)
        #expect(((windows.first?["tabs"] as? [[String: Any]])?.first?["url"] as? String) == "https://example.org/healthy/closed/2")
    }

    /// An encrypted file that hides no readable one: repair writes nothing and says what is left.
    @Test func anEncryptedSessionIsLeftAsItIs() throws {
        let profile = try Self.copy("encrypted")
        defer { try? FileManager.default.removeItem(atPath: parentDirectory(profile)) }
        let result = try CLI.run(["repair", profile])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("result: 1 problem could not be repaired"), "\(result.stdout)")
        #expect(!FileManager.default.fileExists(atPath: profile + "/Backups"))
        let inspect = try CLI.run(["inspect", profile + "/Sessions/Session_13397000000000000"])
        #expect(inspect.status == 65 && inspect.stderr.contains("SNSS version 4 is encrypted"), "\(inspect.stderr)")
    }
}

/// diff between two Session_ files of one profile matches windows by their place and says what
/// changed tab by tab.
@Suite struct ChromiumDesktopDiffTests {
    @Test func twoSessionFilesAreComparedWindowByWindow() throws {
        let older = CLI.path("\(ChromiumDesktopCommandTests.gallery)/marker-missing/Sessions/Session_13396999000000000")
        let newer = CLI.path("\(ChromiumDesktopCommandTests.gallery)/healthy/Sessions/Session_13397000000000000")
        let same = try CLI.run(["diff", older, older, "--format", "json"])
        #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
        let result = try CLI.run(["diff", older, newer, "--format", "json"])
        #expect(result.status == 1, "\(result.stderr)")
        let document = try ChromiumDesktopCommandTests.json(result.stdout)
        let sessions = try #require(document["sessions"] as? [[String: Any]])
        #expect(sessions.compactMap { $0["id"] as? String } == ["#1", "#2"], "\(sessions)")
        #expect(sessions.allSatisfy { $0["status"] as? String == "changed" }, "\(sessions)")
    }
}
