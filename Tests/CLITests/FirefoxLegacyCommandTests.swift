import Foundation
import Testing

/// Firefox for iOS's legacy tab archives as a user meets them: read by every reading command,
/// judged by what Firefox's one-time migration makes of them, salvaged by repair with their
/// histories, converted by migrate --to window-data as Firefox converts them.
@Suite struct FirefoxLegacyCommandTests {
    static let legacy = "Fixtures/firefox-ios/legacy"
    /// The fixture's tabs, in order: their pages and how many URLs each history holds.
    static let pages = [
        "https://www.mozilla.org/en-US/", "https://example.org/private?a=1&b=2", "https://github.com/mozilla-mobile/firefox-ios"
    ]
    static let historyLengths = [3, 1, 2]

    private func json(_ result: CLIResult) throws -> [String: Any] {
        try FirefoxIOSCommandTests.json(result.stdout)
    }

    @Test(arguments: ["codableTabsState.archive", "tabsState.archive"])
    func inspectReadsAnArchiveWithItsHistories(_ name: String) throws {
        let result = try CLI.run(["inspect", CLI.path("\(Self.legacy)/\(name)"), "--history", "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try json(result)
        #expect(document["browser"] as? String == "firefox-ios")
        let session = try #require((document["sessions"] as? [[String: Any]])?.first)
        #expect(session["format"] as? String == "tabs-archive" && session["id"] as? String == name)
        let tabs = try #require(session["tabs"] as? [[String: Any]])
        #expect(tabs.compactMap { $0["url"] as? String } == Self.pages)
        #expect(tabs.map { ($0["history"] as? [String: Any])?["items"] as? [Any] ?? [] }.map(\.count) == Self.historyLengths)
        #expect(tabs.map { $0["incognito"] as? Bool ?? false } == [false, true, false])
    }

    @Test func aDamagedArchiveIsFirefoxsAndSaysWhere() throws {
        let inspect = try CLI.run(["inspect", CLI.path("\(Self.legacy)/truncated.archive")])
        #expect(inspect.status == 65 && inspect.stderr.contains("damaged at byte"), "\(inspect.stderr)")
        let validate = try CLI.run(["validate", CLI.path("\(FirefoxIOSCommandTests.gallery)/legacy-archive-unparsable")])
        #expect(validate.status == 0 && validate.stdout.contains("legacy-archive-unparsable [firefox: none]"), "\(validate.stdout)")
    }

    /// Repair writes the window Firefox's migration would, keeping each tab's history as a session
    /// state; the dry run names the window the run writes, the archive is left as it was, and a
    /// second run changes nothing.
    @Test(arguments: ["legacy-archive-unmigrated", "legacy-archive-unread"])
    func repairWritesTheArchivesTabsWithTheirHistories(_ name: String) throws {
        let root = try FirefoxIOSCommandTests.copy(name)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let profile = "\(root)/group"
        let listing = Archives.listing(profile)
        let archives = listing.filter { $0.hasSuffix(".archive") }
        let before = try archives.map { try Data(contentsOf: URL(fileURLWithPath: "\(profile)/\($0)")) }
        let dry = try CLI.run(["repair", "--dry-run", profile])
        #expect(dry.status == 0 && Archives.listing(profile) == listing, "\(dry.stdout)\(dry.stderr)")
        let run = try CLI.run(["repair", profile])
        #expect(run.status == 0 && run.stdout.contains("result: the profile validates clean"), "\(run.stdout)\(run.stderr)")
        let window = try #require(Archives.listing("\(profile)/profile.profile/window-data").first)
        #expect(dry.stdout.contains(window), "the dry run names \(window): \(dry.stdout)")
        #expect(try archives.map { try Data(contentsOf: URL(fileURLWithPath: "\(profile)/\($0)")) } == before, "the archive stays")
        // Read from the profile: a window file alone does not reach the tabs' session states.
        let inspect = try json(try CLI.run(["inspect", profile, "--history", "--format", "json"]))
        let written = (inspect["sessions"] as? [[String: Any]])?.first { $0["format"] as? String == "window-data" }
        let tabs = try #require(written?["tabs"] as? [[String: Any]])
        #expect(tabs.compactMap { $0["url"] as? String } == Self.pages)
        // Histories for regular tabs only: the private tab's is not written.
        #expect(tabs.map { ($0["history"] as? [String: Any])?["items"] as? [Any] ?? [] }.map(\.count) == [3, 0, 2])
        let validate = try json(try CLI.run(["validate", profile, "--format", "json"]))
        let rules = (validate["findings"] as? [[String: Any]] ?? []).compactMap { $0["rule"] as? String }
        #expect(rules.allSatisfy { ["legacy-archive-left", "backup-missing", "private-tabs-saved"].contains($0) }, "\(rules)")
        let again = try CLI.run(["repair", profile])
        #expect(again.status == 0 && again.stdout.contains("plan: nothing to change"), "\(again.stdout)")
    }

    /// An empty window file, what Firefox leaves when its migration finds no tab, is set aside
    /// and replaced under its own UUID.
    @Test func repairReplacesTheEmptyWindowFirefoxMade() throws {
        let root = try FirefoxIOSCommandTests.copy("legacy-archive-unread")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let profile = "\(root)/group"
        let id = "11111111-2222-4333-8444-555555555555"
        try FileManager.default.createDirectory(atPath: "\(profile)/profile.profile/window-data", withIntermediateDirectories: true)
        try FirefoxIOSEdgeTests.write(
            ["id": id, "activeTabId": "11111111-2222-4333-8444-666666666666", "tabData": [] as [Any]],
            to: "\(profile)/profile.profile/window-data/window-\(id)")
        let run = try CLI.run(["repair", profile])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(Archives.listing("\(profile)/profile.profile/window-data") == ["window-\(id)"])
        #expect(Archives.listing("\(profile)/Backups/\(id)").contains { $0.hasSuffix("window-data/window-\(id)") })
    }

    /// migrate --to window-data does what Firefox's migration does: no histories, each change said.
    @Test func migrateConvertsAsFirefoxDoes() throws {
        let root = try FirefoxIOSCommandTests.copy("legacy-archive-unmigrated")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let profile = "\(root)/group"
        let listing = Archives.listing(profile)
        let dry = try CLI.run(["migrate", profile, "--to", "window-data", "--dry-run"])
        #expect(dry.status == 0 && Archives.listing(profile) == listing, "\(dry.stdout)\(dry.stderr)")
        #expect(dry.stdout.contains("its back/forward history (3 pages) is dropped [as Firefox does]"), "\(dry.stdout)")
        let run = try json(try CLI.run(["migrate", profile, "--to", "window-data", "--format", "json"]))
        #expect(run["browser"] as? String == "firefox-ios" && run["target"] as? String == "window-data")
        let written = try #require((run["written"] as? [String])?.first)
        let data = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(profile)/\(written)"))) as? [String: Any])
        #expect((data["tabData"] as? [[String: Any]])?.compactMap { $0["siteUrl"] as? String } == Self.pages)
        #expect(!FileManager.default.fileExists(atPath: "\(profile)/profile.profile/tab-session-data"), "histories are dropped")
        let validate = try CLI.run(["validate", profile])
        #expect(validate.status == 0 && validate.stdout.contains("legacy-archive-left"), "\(validate.stdout)")
        let again = try CLI.run(["migrate", profile, "--to", "window-data"])
        #expect(again.status == 65 && again.stderr.contains("used window files since its migration"), "\(again.stderr)")
        let chrome = try CLI.run(["migrate", CLI.path("Fixtures/profiles/healthy"), "--to", "window-data", "--dry-run"])
        #expect(chrome.status == 65 && chrome.stderr.contains("window-data is Firefox for iOS's format"), "\(chrome.stderr)")
    }
}

/// `aside` on a Firefox for iOS container, as a user runs it.
@Suite struct FirefoxAsideCommandTests {
    @Test func pushListRestoreAndDropAWindow() throws {
        let root = try FirefoxIOSCommandTests.copy("healthy")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let profile = "\(root)/group"
        let live = Archives.listing("\(profile)/profile.profile")
        let push = try CLI.run(["aside", "push", profile, "--reason", "before a reinstall", "--format", "json"])
        #expect(push.status == 0, "\(push.stderr)")
        let pushed = try FirefoxIOSCommandTests.json(push.stdout)
        #expect(pushed["browser"] as? String == "firefox-ios")
        let name = try #require((pushed["entries"] as? [[String: Any]])?.first?["entry"] as? String)
        #expect(name.hasPrefix(FirefoxIOSCommandTests.window + "@"))
        let listed = try CLI.run(["aside", "list", profile])
        #expect(listed.status == 0 && listed.stdout.contains(name) && listed.stdout.contains("before a reinstall"), "\(listed.stdout)")
        // Firefox would open one new tab now: what is left is no window.
        #expect(try CLI.run(["validate", profile]).stdout.contains("0 sessions"))
        let restore = try CLI.run(["aside", "restore", profile, name])
        #expect(restore.status == 0, "\(restore.stderr)")
        #expect(Archives.listing("\(profile)/profile.profile") == live)
        // A window file in the way is refused, and set aside first with --force.
        let again = try FirefoxIOSCommandTests.json(try CLI.run(["aside", "push", profile, "--format", "json"]).stdout)
        let second = try #require((again["entries"] as? [[String: Any]])?.first?["entry"] as? String)
        let windowFile = "\(profile)/profile.profile/window-data/window-\(FirefoxIOSCommandTests.window)"
        try FileManager.default.createDirectory(atPath: "\(profile)/profile.profile/window-data", withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: URL(fileURLWithPath: windowFile))
        let refused = try CLI.run(["aside", "restore", profile, second])
        #expect(refused.status == 73 && refused.stderr.contains("--force"), "\(refused.status) \(refused.stderr)")
        let forced = try CLI.run(["aside", "restore", profile, second, "--force"])
        #expect(forced.status == 0 && forced.stdout.contains("set aside the live session first"), "\(forced.stdout)\(forced.stderr)")
        #expect(Archives.listing("\(profile)/profile.profile") == live)
        let displaced = try #require(
            (try FirefoxIOSCommandTests.json(try CLI.run(["aside", "list", profile, "--format", "json"]).stdout)["entries"]
                as? [[String: Any]])?.first?["entry"] as? String)
        let drop = try CLI.run(["aside", "drop", profile, displaced])
        #expect(drop.status == 0, "\(drop.stderr)")
        #expect(try CLI.run(["aside", "list", profile]).stdout.contains("no set-aside entries"))
    }
}

/// What a second read of the legacy-archive change found, each held by a test.
@Suite struct FirefoxLegacyEdgeTests {
    /// A container holding only `codableTabsState.archive` made from a fixture of Fixtures/firefox-ios/legacy.
    static func container(_ fixture: String) throws -> String {
        let root = try CLI.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: "\(root)/group/profile.profile", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: CLI.path("\(FirefoxLegacyCommandTests.legacy)/\(fixture)"),
            toPath: "\(root)/group/profile.profile/codableTabsState.archive")
        return root
    }

    /// The tabs of the one window file repair wrote, read back.
    static func writtenTabs(_ profile: String) throws -> [[String: Any]] {
        let windows = Archives.listing("\(profile)/profile.profile/window-data")
        #expect(windows.count == 1, "\(windows)")
        let data = try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: "\(profile)/profile.profile/window-data/\(windows.first ?? "")")))
        return (data as? [String: Any])?["tabData"] as? [[String: Any]] ?? []
    }

    @Test func twoTabsSharingAUUIDAreBothWritten() throws {
        let root = try Self.container("duplicate-uuid.archive")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let run = try CLI.run(["repair", "\(root)/group"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let tabs = try Self.writtenTabs("\(root)/group")
        #expect(tabs.compactMap { $0["siteUrl"] as? String } == FirefoxLegacyCommandTests.pages)
        #expect(Set(tabs.compactMap { $0["id"] as? String }).count == 3)
    }

    @Test func withNoTabSelectedOneRunRepairsItAll() throws {
        let root = try Self.container("no-selection.archive")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let dry = try CLI.run(["repair", "--dry-run", "\(root)/group"])
        #expect(dry.stdout.contains("the plan repairs everything that needs it"), "\(dry.stdout)")
        let run = try CLI.run(["repair", "\(root)/group"])
        #expect(run.status == 0 && run.stdout.contains("validates clean"), "\(run.stdout)\(run.stderr)")
        #expect(try CLI.run(["repair", "\(root)/group"]).stdout.contains("plan: nothing to change"))
    }

    /// A window set aside, or one whose file is damaged, says Firefox has used window files: the
    /// archive of before is left alone, and no second window is written from it.
    @Test(arguments: ["aside", "damaged"])
    func anArchiveIsNotBroughtBackOnceFirefoxUsedWindowFiles(_ how: String) throws {
        let root = try FirefoxIOSCommandTests.copy("legacy-archive-left")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let profile = "\(root)/group"
        let window = "\(profile)/profile.profile/window-data/window-\(FirefoxIOSCommandTests.window)"
        if how == "aside" {
            #expect(try CLI.run(["aside", "push", profile]).status == 0)
        } else {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: window))
            try bytes.prefix(600).write(to: URL(fileURLWithPath: window))
        }
        let validate = try CLI.run(["validate", profile])
        #expect(
            validate.stdout.contains("legacy-archive-left") && !validate.stdout.contains("legacy-archive-unmigrated"), "\(validate.stdout)")
        _ = try CLI.run(["repair", profile])
        #expect(Archives.listing("\(profile)/profile.profile/window-data").count <= 1)
        let migrate = try CLI.run(["migrate", profile, "--to", "window-data", "--dry-run"])
        #expect(migrate.status == 65 && migrate.stderr.contains("used window files"), "\(migrate.stderr)")
    }
}
