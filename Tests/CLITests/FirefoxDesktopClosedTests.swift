import Foundation
import Testing

/// The tabs and windows a Firefox desktop session keeps to reopen (`_closedTabs`,
/// `_closedWindows`) in inspect and report, beside the open ones and never counted with them.
@Suite struct FirefoxDesktopClosedTests {
    static let healthy = CLI.path("\(FirefoxDesktopCommandTests.gallery)/healthy")

    @Test func inspectListsClosedTabsAndWindows() throws {
        let text = try CLI.run(["inspect", Self.healthy])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("session sessionstore.jsonlz4#1 (sessionstore): 6 tabs"), "\(text.stdout)")
        #expect(text.stdout.contains("  closed tabs: 1\n    [0] Tab 100 page 1\n"), "\(text.stdout)")
        #expect(text.stdout.contains("  closed window sessionstore.jsonlz4#closed-1: 2 tabs\n"), "\(text.stdout)")
        #expect(text.stdout.contains("https://developer.mozilla.org/en-US/?tab=201&page=1, 2 items"), "\(text.stdout)")

        let json = try CLI.run(["inspect", Self.healthy, "--format", "json", "--history"])
        let sessions = try #require(try FirefoxDesktopCommandTests.json(json.stdout)["sessions"] as? [[String: Any]])
        #expect(sessions.count == 1)
        let window = try #require(sessions.first)
        #expect((window["tabs"] as? [Any])?.count == 6)
        let closedTabs = try #require(window["closedTabs"] as? [[String: Any]])
        #expect(closedTabs.count == 1 && closedTabs[0]["url"] as? String == "https://github.com/mozilla/gecko-dev?tab=100&page=1")
        #expect((closedTabs[0]["history"] as? [String: Any]) != nil, "\(closedTabs[0])")
        let closedWindows = try #require(window["closedWindows"] as? [[String: Any]])
        #expect(closedWindows.count == 1 && closedWindows[0]["id"] as? String == "sessionstore.jsonlz4#closed-1")
        #expect((closedWindows[0]["tabs"] as? [Any])?.count == 2)

        // validate counts the open tabs only.
        let validate = try CLI.run(["validate", Self.healthy, "--format", "json"])
        let summary = try #require(try FirefoxDesktopCommandTests.json(validate.stdout)["summary"] as? [String: Any])
        #expect(summary["tabs"] as? Int == 6, "\(summary)")
    }

    @Test func aChromeDocumentHasNoClosedKeys() throws {
        let json = try CLI.run(["inspect", CLI.path("Fixtures/profiles/healthy"), "--format", "json"])
        #expect(json.status == 0)
        #expect(!json.stdout.contains("closedTabs") && !json.stdout.contains("closedWindows"))
    }

    @Test func theReportListsThem() throws {
        let directory = try CLI.temporaryDirectory("firefox-closed")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let page = directory + "/report.html"
        let result = try CLI.run(["report", Self.healthy, "-o", page])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("<h3>Closed tabs (1)</h3>"), "closed tabs")
        #expect(html.contains("<h3>Closed window sessionstore.jsonlz4#closed-1 (2 tabs)</h3>"), "closed window")
        #expect(html.contains("https://www.mozilla.org/?tab=200&amp;page=1"), "closed window's tab")
    }
}
