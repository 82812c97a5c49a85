import Foundation
import SessionFormats
import SessionModel
import TestSupport
import Testing

@testable import SessionStore

/// Incognito sessions: stored apart under OTR/, and every incognito file removed, durably, when
/// the last incognito tab closes.
@Suite struct IncognitoTests {
    init() { Browsers.install() }

    private func anyFileContains(_ harness: StoreHarness, _ text: String) -> Bool {
        let needle = Data(text.utf8)
        return harness.directory.allFiles().contains { Data(harness.directory.bytes($0)).range(of: needle) != nil }
    }

    @Test func incognitoSessionsAreStoredApart() throws {
        let harness = try StoreHarness()
        harness.window.openTab(url: "https://regular.example/")
        let incognito = try harness.service.openWindow(incognito: true)
        incognito.openTab(url: "https://secret.example/")
        harness.service.sceneDidEnterBackground()
        #expect(harness.urlsOnDisk(incognito: true) == ["https://secret.example/"])
        #expect(harness.directory.exists("Default/OTR/SessionStorage/{SyntheticIdentifier}/session_metadata.pb"))
        #expect(harness.urlsOnDisk() == ["https://regular.example/"])
        try harness.relaunch()
        #expect(try harness.service.openWindow(incognito: true).tabs.tabs.map(\.url) == ["https://secret.example/"])
    }

    @Test func closingTheLastIncognitoTabRemovesEveryIncognitoFileAtOnce() throws {
        let harness = try StoreHarness()
        harness.window.openTab(url: "https://regular.example/")
        let first = try harness.service.openWindow("A", incognito: true)
        let second = try harness.service.openWindow("B", incognito: true)
        first.openTab(url: "https://secret-one.example/", title: "Secret one")
        let tab = second.openTab(url: "https://secret-two.example/")
        tab.navigate(to: "https://secret-two.example/deeper")
        harness.service.sceneDidEnterBackground()
        #expect(anyFileContains(harness, "secret-two"))

        second.tabs.close(at: 0)
        #expect(harness.records.count == 1, "another incognito tab is open: no purge yet")
        harness.fileSystem.reset()
        harness.service.profile.closeAllIncognitoTabs()
        let record = try #require(harness.records.last)
        #expect(record.trigger == .incognitoClosed)
        #expect(record.incognitoPurged)
        #expect(!harness.directory.exists("Default/OTR"))
        #expect(!anyFileContains(harness, "secret"))
        #expect(!anyFileContains(harness, "Secret"))
        // OTR leaves its path at once (renamed to a temporary name), then is removed.
        let doomed = harness.directory.at("Default/.sessionctl-tmp.OTR")
        #expect(harness.writes.first == .rename(harness.directory.at("Default/OTR"), doomed))
        #expect(harness.writes.suffix(2) == [.rmdir(doomed), .fsyncDirectory(harness.profile)])
        #expect(harness.urlsOnDisk() == ["https://regular.example/"], "the regular side is untouched")
        // The pending delayed save of the regular side still runs; nothing incognito comes back.
        harness.clock.advance(by: .seconds(5))
        #expect(!harness.directory.exists("Default/OTR"))
    }

    @Test func theIncognitoSideComesBackWithTheNextIncognitoTab() throws {
        let harness = try StoreHarness()
        let incognito = try harness.service.openWindow(incognito: true)
        incognito.openTab(url: "https://one.example/")
        harness.service.saveNow()
        incognito.tabs.closeAll()
        #expect(!harness.directory.exists("Default/OTR"))
        incognito.openTab(url: "https://two.example/")
        harness.clock.advance(by: .seconds(3))
        #expect(harness.urlsOnDisk(incognito: true) == ["https://two.example/"])
    }
}
