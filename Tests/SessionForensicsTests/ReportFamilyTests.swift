import Foundation
import SessionFormats
import TestSupport
import Testing

@testable import SessionForensics

/// What a report shows follows the family of its input: the backups a browser keeps of its own
/// sessions only where it keeps them, and a lane name for every window that tells it apart.
@Suite struct ReportFamilyTests {
    init() { Browsers.install() }

    /// Chrome for iOS's profile has the row of its crash backups; no other family's has one.
    @Test(arguments: [
        ("Fixtures/profiles/healthy", "Chrome's crash backups"),
        ("Fixtures/firefox-ios/gallery/healthy", nil),
        ("Fixtures/firefox-desktop/gallery/healthy", nil),
        ("Fixtures/real/chromium-desktop/edge-141", nil)
    ])
    func onlyABrowserThatKeepsBackupsHasTheirRow(_ path: String, backups: String?) throws {
        let input = try InputOpener.open(Repository.path(path))
        let report = ProfileReport.gather(input, input: path, history: false, redact: false)
        #expect(report.ownBackupsName == backups)
        let page = ReportPage.render(report)
        #expect(page.contains("crash backups") == (backups != nil))
    }

    /// A lane is named by what tells its window apart: a short id whole, a window of a session
    /// file by its file's name shortened before its number, anything else by its first 13 characters.
    @Test func laneNamesTellWindowsApart() {
        #expect(TimelineSVG.laneName("E3F1A7C2-5B4D-4E6F-8A9B-0C1D2E3F4A5B") == "E3F1A7C2-5B4D")
        #expect(TimelineSVG.laneName("short-id") == "short-id")
        #expect(TimelineSVG.laneName("sessionstore.jsonlz4#1") == "sessionsto…#1")
        #expect(TimelineSVG.laneName("sessionstore.jsonlz4#2") != TimelineSVG.laneName("sessionstore.jsonlz4#1"))
        #expect(TimelineSVG.laneName("sessionstore-backups/recovery.jsonlz4#12") == "recovery.…#12")
        #expect(TimelineSVG.laneName("Sessions/Session_13404976876976421#1") == "Session_13…#1")
        #expect(TimelineSVG.laneName("Sessions/Tabs#1") == "Tabs#1")
        #expect(TimelineSVG.laneName("sessionstore.jsonlz4#closed-3").hasSuffix("#closed-3"))
    }
}
