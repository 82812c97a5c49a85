import Foundation
import SessionModel
import TestSupport
import Testing

@testable import FirefoxIOS
@testable import SessionFormats

/// Firefox for iOS's legacy tab archives (Fixtures/firefox-ios/legacy, written by hand with Python's
/// plistlib as NSKeyedArchiver lays them out): both shapes read whole, judged as Firefox's Codable
/// decoder judges them, and migrated as Firefox's one-time migration migrates them.
@Suite struct FirefoxLegacyArchiveTests {
    init() { Browsers.install() }

    static let directory = Repository.path("Fixtures/firefox-ios/legacy")
    static let window = "E3F1A7C2-5B4D-4E6F-8A9B-0C1D2E3F4A5B"

    static func bytes(_ name: String) throws -> [UInt8] {
        let path = "\(directory)/\(name)"
        return [UInt8](try #require(FileManager.default.contents(atPath: path), "\(path)"))
    }

    static func decode(_ name: String) throws -> FirefoxLegacyArchive {
        try FirefoxLegacyArchive.decode(try bytes(name), file: name)
    }

    /// The tabs make-legacy writes, offsets left at 0.
    static let expected: [FirefoxLegacyTab] = [
        FirefoxLegacyTab(
            isSelected: true, title: "Mozilla", url: "https://www.mozilla.org/en-US/", faviconURL: "https://www.mozilla.org/favicon.ico",
            urls: ["https://www.google.com/search?q=mozilla", "https://www.mozilla.org/en-US/", "https://www.mozilla.org/en-US/firefox/"],
            currentPage: -1, lastUsedTime: 1_677_665_730_250, createdAt: 1_676_880_000_000,
            screenshotUUID: "0F1E2D3C-4B5A-4968-8776-655443322110", uuid: "6d1a2f70-3c1b-4e2a-9f00-1f2e3d4c5b6a"),
        FirefoxLegacyTab(
            isPrivate: true, title: "Private page", url: "https://example.org/private?a=1&b=2",
            urls: ["https://example.org/private?a=1&b=2"],
            lastUsedTime: 1_677_661_200_000, createdAt: 1_677_661_140_000, screenshotUUID: "2B3C4D5E-6F7A-4B1C-8D9E-0F1A2B3C4D5E",
            uuid: "7e2b3a81-4d2c-4f3b-8a11-2a3b4c5d6e7f"),
        FirefoxLegacyTab(
            hasHomeScreenshot: true, title: "Firefox for iOS - GitHub", url: "https://github.com/mozilla-mobile/firefox-ios",
            urls: ["https://www.google.com/search?q=firefox+ios", "https://github.com/mozilla-mobile/firefox-ios"],
            lastUsedTime: 1_677_607_200_000, uuid: "8f3c4b92-5e3d-4a4c-9b22-3b4c5d6e7f80",
            group: FirefoxLegacyTab.Group(
                searchTerm: "firefox ios", searchURL: "https://www.google.com/search?q=firefox+ios",
                nextURL: "https://github.com/mozilla-mobile/firefox-ios", historyState: "openURLOnly"))
    ]

    static func withoutOffsets(_ tabs: [FirefoxLegacyTab]) -> [FirefoxLegacyTab] {
        tabs.map { tab in
            var tab = tab
            tab.offset = 0
            return tab
        }
    }

    @Test func theSavedTabArchiveReadsEveryFieldAndNeverLoads() throws {
        let archive = try Self.decode("tabsState.archive")
        #expect(archive.shape == .savedTabObjects && archive.damage.isEmpty)
        #expect(Self.withoutOffsets(archive.tabs) == Self.expected)
        #expect(archive.tabs.allSatisfy { $0.offset > 8 })
        #expect(!archive.loadsInFirefox)
        #expect(archive.refusal == FirefoxLegacyArchive.savedTabRefusal)
    }

    @Test func theCodableArchiveReadsTheSameTabsAndLoads() throws {
        let archive = try Self.decode("codableTabsState.archive")
        #expect(archive.shape == .codable && archive.damage.isEmpty)
        #expect(Self.withoutOffsets(archive.tabs) == Self.expected)
        #expect(Self.withoutOffsets(archive.tabs) == Self.withoutOffsets(try Self.decode("tabsState.archive").tabs))
        #expect(archive.loadsInFirefox && archive.refusal == nil)
    }

    @Test func aTabWithoutARequiredBooleanRefusesTheWholeArrayButEveryTabReads() throws {
        let archive = try Self.decode("codable-refused.archive")
        #expect(archive.shape == .codable && archive.damage.isEmpty)
        #expect(Self.withoutOffsets(archive.tabs) == Self.expected)
        #expect(!archive.loadsInFirefox)
        #expect(archive.refusal == "tabs[1].hasHomeScreenshot is missing")
    }

    /// Cut inside its objects, the file has no offset table or trailer: the reader finds no
    /// object and throws, at the end where the trailer should be.
    @Test func theTruncatedArchiveIsDamageAtItsEnd() throws {
        let bytes = try Self.bytes("truncated.archive")
        #expect {
            try FirefoxLegacyArchive.decode(bytes, file: "truncated.archive")
        } throws: { error in
            guard case .damaged(let file, let offset, let reason) = error as? FormatError else { return false }
            return file == "truncated.archive" && offset == bytes.count && reason.contains("trailer")
        }
    }

    @Test func historyMakesTheCurrentPageTheLastCommittedItem() throws {
        let tab = try Self.decode("codableTabsState.archive").tabs[0]
        #expect(tab.currentIndex == 1)
        let history = tab.history(time: Timestamp(microseconds: 42))
        #expect(history.items.map(\.url) == tab.urls)
        #expect(history.lastCommittedIndex == 1 && history.lastCommittedItem?.title == "Mozilla")
        #expect(history.items.allSatisfy { $0.timestamp == Timestamp(microseconds: 42) })
        #expect(tab.lastUsedTimestamp.iso8601 == "2023-03-01T10:15:30.250000Z")
        #expect(tab.createdTimestamp.iso8601 == "2023-02-20T08:00:00.000000Z")
        var far = tab
        far.currentPage = -7
        #expect(far.currentIndex == 0)
        far.currentPage = 3
        #expect(far.currentIndex == 2)
        far.urls = []
        #expect(far.currentIndex == nil && far.history(time: .null).lastCommittedIndex == -1)
    }

    /// Fresh UUIDs counted from 1, so that the migration's calls for them are seen.
    static func counter(_ count: inout Int) -> String {
        count += 1
        return "00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - String(count).count) + String(count)
    }

    @Test func theMigrationKeepsWhatFirefoxKeepsAndDropsTheRest() throws {
        let archive = try Self.decode("codableTabsState.archive")
        var count = 0
        let window = archive.migratedWindow(id: Self.window, migrationTime: 700_000_000) { Self.counter(&count) }
        #expect(count == 1)
        #expect(window.id == Self.window && window.activeTabID == "0F1E2D3C-4B5A-4968-8776-655443322110")
        #expect(
            window.tabs.map(\.id) == [
                "0F1E2D3C-4B5A-4968-8776-655443322110", "2B3C4D5E-6F7A-4B1C-8D9E-0F1A2B3C4D5E", "00000000-0000-4000-8000-000000000001"
            ])
        #expect(window.tabs.map(\.siteURL) == Self.expected.map { $0.url ?? "" })
        #expect(window.tabs.map(\.title) == Self.expected.map(\.title))
        #expect(window.tabs.map(\.faviconURL) == Self.expected.map(\.faviconURL))
        #expect(window.tabs.map(\.isPrivate) == [false, true, false])
        #expect(window.tabs.map(\.lastUsedTime) == [700_000_000, 700_000_000, 700_000_000])
        #expect(window.tabs.map(\.createdAtTime) == [698_572_800, 699_353_940, 700_000_000])
        #expect(window.tabs[0].groupData == .object([]))
        #expect(
            window.tabs[2].groupData
                == .object([
                    ("searchTerm", .string("firefox ios")), ("searchUrl", .string("https://www.google.com/search?q=firefox+ios")),
                    ("nextUrl", .string("https://github.com/mozilla-mobile/firefox-ios")),
                    ("tabHistoryCurrentState", .string("openURLOnly"))
                ]))
        // The history, the UUID string and hasHomeScreenshot are nowhere in the window file.
        let bytes = FirefoxWindowEncoder.encode(window)
        let text = String(decoding: bytes, as: UTF8.self)
        for dropped in ["google.com/search?q=mozilla", "6d1a2f70", "hasHomeScreenshot", "urls", "currentPage"] {
            #expect(!text.contains(dropped), "\(dropped)")
        }
        let file = FirefoxWindowDecoder.decode(bytes)
        #expect(file.loadsInFirefox && file.window == window)
    }

    @Test func theLosslessMigrationKeepsEachTabsLastUse() throws {
        let archive = try Self.decode("tabsState.archive")
        var count = 0
        let window = archive.migratedWindow(id: Self.window, migrationTime: 700_000_000, keepingLastUsedTime: true) {
            Self.counter(&count)
        }
        #expect(window.tabs.map(\.lastUsedTime) == [699_358_530.25, 699_354_000, 699_300_000])
        var noHistory = archive
        noHistory.tabs[1].lastUsedTime = nil
        #expect(noHistory.migratedWindow(id: Self.window, migrationTime: 5, keepingLastUsedTime: true).tabs[1].lastUsedTime == 5)
    }

    @Test func aSelectedTabWithoutAScreenshotUUIDLeavesNoTabActive() throws {
        var archive = try Self.decode("codableTabsState.archive")
        archive.tabs[0].isSelected = false
        archive.tabs[2].isSelected = true
        var count = 0
        let window = archive.migratedWindow(id: Self.window, migrationTime: 0) { Self.counter(&count) }
        #expect(window.tabs[2].id == "00000000-0000-4000-8000-000000000001")
        #expect(window.activeTabID == "00000000-0000-4000-8000-000000000002")
        // The last selected tab wins, and with none selected a fresh UUID names no tab.
        archive.tabs[0].isSelected = true
        archive.tabs[1].isSelected = true
        archive.tabs[2].isSelected = false
        #expect(archive.migratedWindow(id: Self.window, migrationTime: 0).activeTabID == "2B3C4D5E-6F7A-4B1C-8D9E-0F1A2B3C4D5E")
        archive.tabs[1].isSelected = false
        archive.tabs[0].isSelected = false
        count = 0
        #expect(archive.migratedWindow(id: Self.window, migrationTime: 0) { Self.counter(&count) }.activeTabID.hasSuffix("000000000002"))
    }

    @Test func anUnknownTimerStateIsLeftOutOfTheGroup() {
        let group = FirefoxLegacyTab.Group(searchTerm: "a", searchURL: nil, nextURL: "b", historyState: "somethingNew")
        #expect(FirefoxLegacyArchive.groupData(group) == .object([("searchTerm", .string("a")), ("nextUrl", .string("b"))]))
    }
}
