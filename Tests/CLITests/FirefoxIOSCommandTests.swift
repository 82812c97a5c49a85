import Foundation
import Testing

/// The commands on Firefox for iOS profiles (Fixtures/firefox-ios, written by Python's json and
/// plistlib), as a user runs them.
@Suite struct FirefoxIOSCommandTests {
    static let gallery = "Fixtures/firefox-ios/gallery"
    static let window = "E3F1A7C2-5B4D-4E6F-8A9B-0C1D2E3F4A5B"

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// Each case of the gallery is reported with its rule, and only the cases that lose something fail.
    @Test(arguments: [
        ("healthy", [String](), 0),
        ("window-file-unparsable", ["window-file-unparsable"], 1),
        ("window-file-refused", ["window-file-unparsable"], 1),
        ("window-lost", ["window-lost"], 1),
        ("window-only-in-backup", ["window-only-in-backup"], 1),
        ("backup-missing", ["backup-missing"], 0),
        ("backup-behind", ["backup-behind"], 0),
        ("backup-unparsable", ["backup-unparsable"], 0),
        ("active-tab-missing", ["active-tab-missing"], 0),
        ("tab-uuid-duplicate", ["tab-uuid-duplicate"], 0),
        ("tab-url-invalid", ["tab-url-invalid"], 0),
        ("tab-state-unparsable", ["tab-state-unparsable"], 0),
        ("internal-url", ["internal-url"], 0),
        ("windows-several", ["windows-several"], 0),
        ("private-tabs-saved", ["private-tabs-saved"], 0),
        ("legacy-archive-unmigrated", ["legacy-archive-unmigrated"], 0),
        ("legacy-archive-unread", ["legacy-archive-unread"], 1),
        ("legacy-archive-left", ["legacy-archive-left"], 0),
        ("legacy-archive-unparsable", ["legacy-archive-unparsable"], 0)
    ])
    func validateNamesWhatFirefoxDoes(name: String, rules: [String], status: Int32) throws {
        let result = try CLI.run(["validate", CLI.path("\(Self.gallery)/\(name)"), "--format", "json"])
        #expect(result.status == status, "\(name): \(result.stdout)\(result.stderr)")
        let document = try Self.json(result.stdout)
        #expect(document["browser"] as? String == "firefox-ios")
        let findings = try #require(document["findings"] as? [[String: Any]])
        #expect(findings.compactMap { $0["rule"] as? String } == rules, "\(name)")
        for finding in findings {
            #expect(finding["chrome"] == nil && finding["outcome"] is String, "\(finding)")
        }
        let sessions = try #require(document["sessions"] as? [[String: Any]])
        #expect(sessions.allSatisfy { ["window-data", "tabs-archive"].contains($0["format"] as? String) })
        // What repair acts on gets the command that shows how, naming Firefox.
        let text = try CLI.run(["validate", CLI.path("\(Self.gallery)/\(name)")])
        let repairable = findings.contains { $0["severity"] as? String != "info" }
        #expect(text.stdout.contains("next: sessionctl repair --dry-run") == repairable, "\(text.stdout)")
        #expect(!text.stdout.contains("next:") || text.stdout.contains("what Firefox would lose"), "\(text.stdout)")
        #expect(rules.allSatisfy { text.stdout.contains("\($0) [firefox: ") }, "\(text.stdout)")
    }

    /// What Firefox loads instead of a damaged window file, and what that loses, in numbers.
    @Test func aDamagedWindowFileSaysWhatTheBackupLoses() throws {
        let result = try CLI.run(["validate", CLI.path("\(Self.gallery)/window-file-unparsable"), "--format", "json"])
        let finding = try #require((try Self.json(result.stdout)["findings"] as? [[String: Any]])?.first)
        #expect(finding["outcome"] as? String == "tab-lost")
        #expect(finding["offset"] is Int)
        let message = try #require(finding["message"] as? String)
        #expect(message.contains("Firefox loads the backup (2 tabs), losing 1 tab"), "\(message)")
        let lost = try CLI.run(["validate", CLI.path("\(Self.gallery)/window-lost")])
        #expect(lost.stdout.contains("Firefox opens one new tab, and 1 tab can be read from the files"), "\(lost.stdout)")
    }

    @Test func inspectListsTabsWithTheirUUIDsPrivacyAndHistories() throws {
        let result = try CLI.run(["inspect", CLI.path("\(Self.gallery)/private-tabs-saved"), "--history", "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try Self.json(result.stdout)
        #expect(document["browser"] as? String == "firefox-ios")
        let session = try #require((document["sessions"] as? [[String: Any]])?.first)
        #expect(session["id"] as? String == Self.window && session["format"] as? String == "window-data")
        #expect(session["activeIndex"] as? Int == 1)
        let tabs = try #require(session["tabs"] as? [[String: Any]])
        #expect(
            tabs.map { $0["stableIdentifier"] as? String } == [
                "0F1E2D3C-4B5A-4968-8776-655443322110", "1A2B3C4D-5E6F-4A0B-9C8D-7E6F5A4B3C2D",
                "2B3C4D5E-6F7A-4B1C-8D9E-0F1A2B3C4D5E", "3C4D5E6F-7A8B-4C2D-9E0F-1A2B3C4D5E6F"
            ])
        #expect(tabs.map { $0["incognito"] as? Bool ?? false } == [false, false, true, false])
        // Times as written: seconds since 2001 in the file, 2026-11-20 09:05:30.25 UTC.
        #expect(tabs[1]["lastActiveTime"] as? String == "2026-11-20T09:05:30.250000Z")
        let history = try #require(tabs[1]["history"] as? [String: Any])
        #expect(history["lastCommittedIndex"] as? Int == 1)
        let items = try #require(history["items"] as? [[String: Any]])
        #expect(
            items.map { $0["url"] as? String } == [
                "https://www.google.com/search?q=firefox+ios", "https://github.com/mozilla-mobile/firefox-ios"
            ])
        // A tab with no session state has no history, and one item for the page it opens.
        #expect(tabs[3]["history"] is NSNull && tabs[3]["navigationItemCount"] as? Int == 1)

        let text = try CLI.run(["inspect", CLI.path("\(Self.gallery)/private-tabs-saved")])
        #expect(text.stdout.contains("   I  [2] 2B3C4D5E-6F7A-4B1C-8D9E-0F1A2B3C4D5E Private page"), "\(text.stdout)")
        #expect(text.stdout.contains("legend: * active, P pinned, o has opener, I private, S salvaged"))
    }

    /// Inspect shows the window Firefox loads: the backup when the window file does not decode;
    /// a window file of an earlier version that today's Firefox refuses, as it reads; a window
    /// neither file holds whole is an error naming both.
    @Test func inspectShowsWhatFirefoxLoads() throws {
        let early = try CLI.run(["inspect", CLI.path("Fixtures/firefox-ios/early-window")])
        #expect(early.status == 0 && early.stdout.contains("2 tabs"), "\(early.stdout)\(early.stderr)")
        let refused = try CLI.run(["validate", CLI.path("Fixtures/firefox-ios/early-window")])
        #expect(refused.status == 1 && refused.stdout.contains("window-lost"), "\(refused.stdout)")
        #expect(refused.stdout.contains("Firefox's decoder refuses .tabData[0].createdAtTime: missing"), "\(refused.stdout)")
        let fallback = try CLI.run(["inspect", CLI.path("\(Self.gallery)/window-file-unparsable")])
        #expect(fallback.status == 0 && fallback.stdout.contains("2 tabs"), "\(fallback.stdout)\(fallback.stderr)")
        // Neither file loads: the tabs read before the damage, marked salvaged, and the place named (exit 1).
        let lost = try CLI.run(["inspect", CLI.path("\(Self.gallery)/window-lost")])
        #expect(lost.status == 1, "\(lost.stdout)\(lost.stderr)")
        #expect(lost.stdout.contains("      S [0] 0F1E2D3C-4B5A-4968-8776-655443322110 Mozilla"), "\(lost.stdout)")
        #expect(
            lost.stdout.contains("salvaged past damage: ") && lost.stdout.contains("window-\(Self.window): damaged at byte 404")
                && lost.stdout.contains("(backup: missing)") && lost.stdout.contains("Firefox loads neither file"), "\(lost.stdout)")
        let lostJSON = try CLI.run(["inspect", CLI.path("\(Self.gallery)/window-lost"), "--format", "json"])
        let document = try Self.json(lostJSON.stdout)
        let tab = try #require(((document["sessions"] as? [[String: Any]])?.first?["tabs"] as? [[String: Any]])?.first)
        let error = try #require((document["errors"] as? [[String: Any]])?.first)
        #expect(lostJSON.status == 1 && tab["salvaged"] as? Bool == true, "\(lostJSON.stdout)")
        #expect(error["offset"] as? Int == 404, "\(lostJSON.stdout)")
    }

    /// The container, the profile directory, window-data/, and one window file named or not.
    @Test(arguments: [
        "gallery/healthy", "gallery/healthy/profile.profile", "gallery/healthy/profile.profile/window-data",
        "gallery/healthy/profile.profile/window-data/window-E3F1A7C2-5B4D-4E6F-8A9B-0C1D2E3F4A5B", "early-window", "unknown-keys-window"
    ])
    func everyLevelOfTheContainerIsRead(path: String) throws {
        let result = try CLI.run(["inspect", CLI.path("Fixtures/firefox-ios/\(path)"), "--format", "json"])
        #expect(result.status == 0, "\(path): \(result.stderr)")
        #expect(try Self.json(result.stdout)["browser"] as? String == "firefox-ios")
        let chrome = try CLI.run(["inspect", CLI.path("Fixtures/firefox-ios/\(path)"), "--browser", "chrome-ios"])
        #expect(chrome.status == 65 && chrome.stderr.contains("not a Chrome for iOS input"), "\(chrome.stderr)")
    }

    /// Tabs are matched by UUID: a tab moved is moved, not removed and added.
    @Test func diffMatchesTabsByUUID() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let source = CLI.path("\(Self.gallery)/healthy/profile.profile/window-data/window-\(Self.window)")
        var window = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: source))) as? [String: Any])
        var tabs = try #require(window["tabData"] as? [[String: Any]])
        tabs.append(tabs.removeFirst())
        tabs[0]["title"] = "Renamed"
        window["tabData"] = tabs
        let moved = "\(root)/window-\(Self.window)"
        try JSONSerialization.data(withJSONObject: window).write(to: URL(fileURLWithPath: moved))
        let result = try CLI.run(["diff", source, moved, "--format", "json"])
        #expect(result.status == 1, "\(result.stderr)")
        let document = try Self.json(result.stdout)
        #expect((document["browsers"] as? [String: String]) == ["a": "firefox-ios", "b": "firefox-ios"])
        let text = try CLI.run(["diff", source, moved])
        #expect(text.stdout.contains("1 moved") && !text.stdout.contains("added") && !text.stdout.contains("removed"), "\(text.stdout)")
    }

    /// Migrate to Chrome's formats refuses a Firefox profile in one line, with nothing written.
    @Test(arguments: [["migrate", "--to", "legacy"], ["migrate", "--to", "optimized"]])
    func commandsThatDoNotWriteItsLayoutRefuseIt(command: [String]) throws {
        let root = try Self.copy("window-lost")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let before = Archives.listing("\(root)/group")
        let refused = try CLI.run(command + ["\(root)/group"])
        #expect(refused.status == 65, "\(command): \(refused.status) \(refused.stderr)")
        #expect(refused.stderr.contains("does not work on Firefox for iOS profiles yet"), "\(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 1)
        #expect(Archives.listing("\(root)/group") == before)
    }

    /// A gallery case copied to a new directory as `group`; returns the directory holding it.
    static func copy(_ name: String) throws -> String {
        let root = try CLI.temporaryDirectory()
        let copied = try CLI.runProgram("/bin/cp", ["-R", CLI.path("\(gallery)/\(name)"), "\(root)/group"])
        #expect(copied.status == 0)
        return root
    }

    /// Repair saves every tab Firefox would lose, into files Firefox loads: the dry run says
    /// exactly what the run leaves, the originals are set aside whole, and a second run changes nothing.
    @Test(arguments: [
        ("window-file-unparsable", 3), ("window-file-refused", 3), ("window-lost", 1), ("window-only-in-backup", 3),
        ("active-tab-missing", 3), ("tab-uuid-duplicate", 4), ("tab-url-invalid", 3), ("tab-state-unparsable", 3)
    ])
    func repairSavesEveryTab(name: String, tabs: Int) throws {
        let root = try Self.copy(name)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let profile = "\(root)/group"
        let before = Archives.listing(profile)
        let dry = try CLI.run(["repair", "--dry-run", profile, "--format", "json"])
        #expect(Archives.listing(profile) == before, "a dry run changed the profile")
        let planned = try Self.json(dry.stdout)
        #expect(planned["browser"] as? String == "firefox-ios")
        let unrepaired = try #require(planned["unrepaired"] as? [[String: Any]])
        #expect(unrepaired.isEmpty && dry.status == 0, "\(name): \(dry.stdout)\(dry.stderr)")
        let run = try CLI.run(["repair", profile])
        #expect(run.status == 0, "\(name): \(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("result: the profile validates clean"), "\(run.stdout)")
        // What Firefox loads now: the window file itself, with every tab.
        let validate = try CLI.run(["validate", profile, "--format", "json"])
        // Still Firefox's: the Backups/ the originals went to does not make the container Chrome's.
        #expect(try Self.json(validate.stdout)["browser"] as? String == "firefox-ios")
        let rules = (try Self.json(validate.stdout)["findings"] as? [[String: Any]] ?? []).compactMap { $0["rule"] as? String }
        #expect(!rules.contains { ["window-file-unparsable", "window-lost", "window-only-in-backup"].contains($0) }, "\(rules)")
        let window = "\(profile)/profile.profile/window-data/window-\(Self.window)"
        let data = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: window))) as? [String: Any])
        let written = try #require(data["tabData"] as? [[String: Any]])
        #expect(written.count == tabs, "\(name): \(written.map { $0["siteUrl"] ?? "" })")
        let ids = written.compactMap { $0["id"] as? String }
        #expect(Set(ids).count == ids.count && ids.contains(data["activeTabId"] as? String ?? ""))
        // The originals are in one entry, with a manifest naming each.
        let entries = Archives.listing("\(profile)/Backups/\(Self.window)").filter { !$0.contains("/") }
        #expect(entries.count == 1, "\(entries)")
        let manifest = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: "\(profile)/Backups/\(Self.window)/\(entries[0])/manifest.json")))
                as? [String: Any])
        let files = (manifest["files"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
        #expect(
            !files.isEmpty
                && files.allSatisfy { FileManager.default.fileExists(atPath: "\(profile)/Backups/\(Self.window)/\(entries[0])/\($0)") })
        let again = try CLI.run(["repair", profile])
        #expect(again.status == 0 && again.stdout.contains("plan: nothing to change"), "\(again.stdout)")
    }

    @Test func reportAndBundlesNameTheBrowser() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let profile = CLI.path("\(Self.gallery)/window-file-unparsable")
        let report = try CLI.run(["report", profile, "-o", "\(root)/report.html", "--history"])
        #expect(report.status == 0, "\(report.stderr)")
        let html = try String(contentsOfFile: "\(root)/report.html", encoding: .utf8)
        #expect(html.contains("window-file-unparsable") && html.contains("Firefox for iOS - GitHub"))
        let bundle = try CLI.run(["compress", profile, "-o", "\(root)/b.tar.gz", "--format", "json"])
        #expect(bundle.status == 0, "\(bundle.stderr)")
        #expect(try Self.json(bundle.stdout)["browser"] as? String == "firefox-ios")
        let fromBundle = try CLI.run(["validate", "\(root)/b.tar.gz", "--format", "json"])
        let browser = try Self.json(fromBundle.stdout)["browser"] as? String
        #expect(fromBundle.status == 1 && browser == "firefox-ios", "\(fromBundle.stderr)")
    }
}

/// What a second read of the Firefox for iOS change found, each held by a test.
@Suite struct FirefoxIOSEdgeTests {
    typealias Base = FirefoxIOSCommandTests
    static let window = Base.window
    static let tabs = ["0F1E2D3C-4B5A-4968-8776-655443322110", "1A2B3C4D-5E6F-4A0B-9C8D-7E6F5A4B3C2D"]

    static func write(_ object: Any, to path: String) throws {
        try FileManager.default.createDirectory(atPath: parentDirectory(path), withIntermediateDirectories: true)
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
    }

    static func tab(_ id: String, _ url: String) -> [String: Any] {
        ["id": id, "title": "T", "siteUrl": url, "isPrivate": false, "lastUsedTime": 800_000_000.0, "createdAtTime": 790_000_000.0]
    }

    /// A Chrome profile holding an empty window-data/ is still Chrome's.
    @Test func aChromeProfileWithAWindowDataDirectoryIsChromes() throws {
        let profile = try RepairCommandTests.copy("Fixtures/profiles/healthy")
        defer { try? FileManager.default.removeItem(atPath: parentDirectory(profile)) }
        try FileManager.default.createDirectory(atPath: "\(profile)/window-data", withIntermediateDirectories: true)
        let result = try CLI.run(["validate", profile, "--format", "json"])
        #expect(try Base.json(result.stdout)["browser"] as? String == "chrome-ios", "\(result.stdout)")
    }

    /// A tab of the window file that the backup lacks is checked as Firefox will load it: its
    /// wrapper unwrapped in the same run.
    @Test func aMergedTabIsFixedInOneRun() throws {
        let root = try Base.copy("window-file-unparsable")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let main = "\(root)/group/profile.profile/window-data/window-\(Self.window)"
        let wrapped = "internal://local/sessionrestore?url=https%3A%2F%2Fa.example%2Fread"
        let extra = "2B3C4D5E-6F7A-4B1C-8D9E-0F1A2B3C4D5E"
        let document = try JSONSerialization.data(withJSONObject: [
            "id": Self.window, "activeTabId": Self.tabs[0],
            "tabData": [Self.tab(Self.tabs[0], "https://www.mozilla.org/"), Self.tab(extra, wrapped)]
        ])
        try Data(document.dropLast(2)).write(to: URL(fileURLWithPath: main))
        let run = try CLI.run(["repair", "\(root)/group"])
        #expect(run.status == 0 && run.stdout.contains("result: the profile validates clean"), "\(run.stdout)\(run.stderr)")
        let written = try String(contentsOfFile: main, encoding: .utf8)
        #expect(written.contains("\"siteUrl\":\"https://a.example/read\"") && !written.contains("sessionrestore"), "\(written)")
    }

    /// One tab UUID in two windows, its session state damaged: set aside once, and the run ends as its dry run said.
    @Test func aStateSharedByTwoWindowsIsSetAsideOnce() throws {
        let root = try Base.copy("tab-state-unparsable")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let other = "A0B1C2D3-E4F5-4A6B-8C7D-9E0F1A2B3C4D"
        try Self.write(
            ["id": other, "activeTabId": Self.tabs[0], "tabData": [Self.tab(Self.tabs[0], "https://www.mozilla.org/")]],
            to: "\(root)/group/profile.profile/window-data/window-\(other)")
        let dry = try CLI.run(["repair", "--dry-run", "\(root)/group"])
        #expect(dry.status == 0, "\(dry.stdout)\(dry.stderr)")
        let run = try CLI.run(["repair", "\(root)/group"])
        #expect(run.status == 0 && run.stdout.contains("result: the profile validates clean"), "\(run.stdout)\(run.stderr)")
    }

    /// The window file a write was replacing when power was lost (its rename undone) is put back
    /// before anything is planned.
    @Test func aWindowFileAWriteWasReplacingIsPutBack() throws {
        let root = try Base.copy("healthy")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let directory = "\(root)/group/profile.profile/window-data"
        try FileManager.default.moveItem(
            atPath: "\(directory)/window-\(Self.window)", toPath: "\(directory)/.sessionctl-old.window-\(Self.window)")
        let run = try CLI.run(["repair", "\(root)/group"])
        #expect(
            run.status == 0 && run.stdout.contains("put profile.profile/window-data/window-\(Self.window) back"),
            "\(run.stdout)\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["window-\(Self.window)"])
        #expect(run.stdout.contains("result: the profile validates clean"))
    }

    /// validate's next step names the profile directory repair takes, from any directory or file inside it.
    @Test(arguments: ["profile.profile/window-data", "profile.profile/window-data/window-E3F1A7C2-5B4D-4E6F-8A9B-0C1D2E3F4A5B"])
    func theNextStepNamesTheProfile(inside: String) throws {
        let path = CLI.path("\(Base.gallery)/active-tab-missing/\(inside)")
        let result = try CLI.run(["validate", path])
        let profile = CLI.path("\(Base.gallery)/active-tab-missing/profile.profile")
        #expect(result.stdout.contains("next: sessionctl repair --dry-run \(profile) "), "\(result.stdout)")
        let dry = try CLI.run(["repair", "--dry-run", profile])
        #expect(dry.status == 0, "\(dry.stdout)\(dry.stderr)")
    }

    /// A Firefox window imported into a Chrome profile keeps its private tabs private: they go to
    /// the window's incognito side.
    @Test func importKeepsPrivateTabsPrivate() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let document = try CLI.run(["inspect", CLI.path("\(Base.gallery)/private-tabs-saved"), "--history", "--format", "json"])
        try Data(document.stdout.utf8).write(to: URL(fileURLWithPath: "\(root)/firefox.json"))
        let imported = try CLI.run(["import", "\(root)/firefox.json", "--out", "\(root)/chrome"])
        #expect(imported.status == 0, "\(imported.stdout)\(imported.stderr)")
        let result = try CLI.run(["inspect", "\(root)/chrome", "--format", "json"])
        let sessions = try #require(try Base.json(result.stdout)["sessions"] as? [[String: Any]])
        #expect(sessions.map { $0["incognito"] as? Bool } == [false, true])
        #expect(sessions.map { ($0["tabs"] as? [Any])?.count } == [3, 1])
        let privateTab = try #require((sessions[1]["tabs"] as? [[String: Any]])?.first)
        #expect(privateTab["title"] as? String == "Private page")
        #expect(try Base.json(result.stdout)["browser"] as? String == "chrome-ios")
    }
}
