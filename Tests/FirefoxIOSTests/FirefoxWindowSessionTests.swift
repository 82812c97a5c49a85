import Foundation
import SessionModel
import TestSupport
import Testing

@testable import FirefoxIOS
@testable import SessionFormats

/// A Firefox for iOS window as a model session, and Firefox's times.
@Suite struct FirefoxWindowSessionTests {
    init() { Browsers.install() }

    static let tabs = ["0F1E2D3C-4B5A-4968-8776-655443322110", "1A2B3C4D-5E6F-4A0B-9C8D-7E6F5A4B3C2D"]

    /// Seconds since 2001 as Foundation's `Date(timeIntervalSinceReferenceDate:)` reads them.
    @Test(arguments: [0.0, 1.5, 817_549_200.25, -978_307_200, 3.0e9])
    func timesAgreeWithFoundation(seconds: Double) {
        let date = Date(timeIntervalSinceReferenceDate: seconds)
        let expected = Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
        #expect(FirefoxTime.timestamp(seconds).unixMicroseconds == expected)
        #expect(FirefoxTime.seconds(FirefoxTime.timestamp(seconds)) == seconds || seconds == -978_307_200)
    }

    /// What no time can be is no time, never a trap or a wrapped value.
    @Test(arguments: [Double.nan, .infinity, -.infinity, 1e300, -1e300, Double.greatestFiniteMagnitude])
    func impossibleTimesAreNull(seconds: Double) {
        #expect(FirefoxTime.timestamp(seconds) == .null)
    }

    @Test func theActiveTabIsFoundWhateverTheCaseOfItsUUID() {
        let window = FirefoxWindowData(
            id: "W", activeTabID: Self.tabs[1].lowercased(),
            tabs: [
                FirefoxTabData(id: Self.tabs[0], title: "A", siteURL: "https://a.example/", lastUsedTime: 10),
                FirefoxTabData(id: Self.tabs[1], siteURL: "", isPrivate: true, createdAtTime: 5)
            ])
        let session = window.session(id: "W")
        #expect(session.activeIndex == 1 && session.format == .windowData && !session.incognito)
        #expect(session.tabs.map(\.id) == [1, 2])
        #expect(session.tabs.map(\.stableIdentifier) == Self.tabs)
        #expect(session.tabs.map(\.incognito) == [false, true])
        #expect(session.tabs.map(\.navigationItemCount) == [1, 0])
        #expect(session.tabs[1].title == "" && session.tabs[1].lastActiveTime == .null)
        #expect(FirefoxWindowData(id: "W", activeTabID: "none", tabs: window.tabs).session(id: "W").activeIndex == -1)
    }

    @Test func aSessionStateBecomesTheTabsHistory() {
        let state = WebKitSessionState(
            entries: [
                .init(url: "https://a.example/1", title: "One", originalURL: "https://a.example/1"),
                .init(url: "https://a.example/2", title: "Two", originalURL: "https://a.example/2")
            ], currentIndex: 0)
        let window = FirefoxWindowData(
            id: "W", activeTabID: Self.tabs[0], tabs: [FirefoxTabData(id: Self.tabs[0], siteURL: "https://a.example/1", lastUsedTime: 100)])
        let tab = window.session(id: "W", states: [Self.tabs[0]: state]).tabs[0]
        #expect(tab.navigationItemCount == 2)
        #expect(tab.history?.lastCommittedIndex == 0)
        #expect(tab.history?.items.map(\.title) == ["One", "Two"])
        #expect(tab.history?.items.allSatisfy { $0.timestamp == FirefoxTime.timestamp(100) } == true)
    }
}
