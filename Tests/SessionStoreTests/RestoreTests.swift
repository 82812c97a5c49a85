import FileSystemKit
import SessionFormats
import SessionModel
import TestSupport
import Testing

@testable import SessionStore

/// Restoring at launch: unrealized tabs, realization on demand, ids above every restored one.
@Suite struct RestoreTests {
    init() { Browsers.install() }

    private final class RealizationLog: TabListObserver {
        var realized: [TabID] = []
        func tabList(_ list: TabList, didRealize tab: BrowserTab) { realized.append(tab.id) }
    }

    @Test func tabsComeBackUnrealizedAndRealizeOnDemand() throws {
        let harness = try StoreHarness()
        let window = harness.window
        let first = window.openTab(url: "https://a.example/", title: "A")
        first.navigate(to: "https://a.example/2", title: "A2")
        let second = window.openTab(url: "https://b.example/", title: "B", opener: first)
        window.tabs.group(0..<2, title: "g")
        window.tabs.activate(at: 0)
        harness.service.sceneDidEnterBackground()

        try harness.relaunch()
        #expect(harness.service.launchReport.previousExit == .unclean)
        let restored = harness.window
        #expect(restored.tabs.tabs.map(\.id) == [first.id, second.id])
        #expect(restored.tabs.tabs.map(\.title) == ["A2", "B"])
        #expect(restored.tabs.activeIndex == 0)
        #expect(restored.tabs.tabs[1].opener === restored.tabs.tabs[0])
        #expect(restored.tabs.groups.map(\.title) == ["g"])
        #expect(restored.tabs.tabs.allSatisfy { !$0.isRealized })

        let log = RealizationLog()
        restored.tabs.addObserver(log)
        harness.fileSystem.reset()
        let history = restored.tabs.tabs[0].realize()
        #expect(history.items.map(\.url) == ["https://a.example/", "https://a.example/2"])
        #expect(log.realized == [first.id])
        #expect(harness.writes.isEmpty, "realizing reads only")
        #expect(!harness.service.isSaveScheduled, "realizing is not a change")

        let third = restored.openTab(url: "https://c.example/")
        #expect(third.id > second.id, "new ids are allocated above the restored ones")
    }

    @Test func aMissingDataFileKeepsTheTabFromItsMetadata() throws {
        let harness = try StoreHarness()
        let tab = harness.window.openTab(url: "https://a.example/", title: "A")
        harness.service.saveNow()
        try POSIXFileSystem().unlink(
            harness.directory.at("Default/SessionStorage/{SyntheticIdentifier}/\(Tab.directoryName(for: tab.id))/data.pb"))
        try harness.relaunch()
        let restored = try #require(harness.window.tabs.tabs.first)
        let history = restored.realize()
        #expect(history.items.map(\.url) == ["https://a.example/"])
        #expect(restored.realizationProblem != nil)
    }

    @Test func newTabIDsStayAboveOrphanDirectoriesWhichTheNextSaveRemoves() throws {
        let harness = try StoreHarness()
        harness.window.openTab(url: "https://a.example/")
        harness.service.saveNow()
        let orphan = "Default/SessionStorage/{SyntheticIdentifier}/00000063"
        try AtomicWriter().makeDirectories(harness.directory.at(orphan))
        try AtomicWriter().write([0x12, 0x00], to: harness.directory.at(orphan + "/data.pb"))
        try harness.relaunch()
        let outcome = try #require(harness.service.launchReport.restored.first?.outcome)
        #expect(outcome.deletedEntries == ["00000063"])
        #expect(harness.directory.exists(orphan), "recovery deletes nothing")
        let tab = harness.window.openTab(url: "https://b.example/")
        #expect(tab.id == 100)
        harness.service.saveNow()
        #expect(!harness.directory.exists(orphan))
        #expect(harness.loadFromDisk().isLossless)
    }
}

/// Tabs moving between windows, and internal URLs never stored as such.
@Suite struct TabMovementTests {
    init() { Browsers.install() }

    @Test func aTabMovedToAnotherWindowKeepsItsHistory() throws {
        let harness = try StoreHarness()
        let source = harness.window
        let tab = source.openTab(url: "https://a.example/")
        tab.navigate(to: "https://a.example/2")
        source.openTab(url: "https://b.example/")
        harness.service.saveNow()
        try harness.relaunch()
        let restored = harness.window
        let moving = restored.tabs.tabs[0]
        #expect(!moving.isRealized)
        let target = try harness.service.openWindow("second")
        target.tabs.insert(moving, activate: true)
        #expect(restored.tabs.count == 1 && target.tabs.count == 1)
        harness.clock.advance(by: .milliseconds(2500))
        #expect(harness.urlsOnDisk() == ["https://b.example/"])
        #expect(harness.urlsOnDisk("second") == ["https://a.example/2"])
        #expect(!harness.directory.exists("Default/SessionStorage/{SyntheticIdentifier}/\(Tab.directoryName(for: tab.id))"))
        let data = harness.directory.bytes("Default/SessionStorage/second/\(Tab.directoryName(for: tab.id))/data.pb")
        #expect(try ChromeProtoCodec.decodeTabData(data).items.count == 2)
        #expect(harness.loadFromDisk().isLossless && harness.loadFromDisk("second").isLossless)
    }

    @Test func internalURLsAreStoredAsTheRealPage() throws {
        let harness = try StoreHarness()
        let wrapper = HistoryRestore(key: "old-launch").pageURL(for: "https://real.example/page")
        let tab = harness.window.openTab(url: wrapper)
        tab.navigate(to: HistoryRestore(key: "old-launch").errorPageURL(for: "https://down.example/"))
        harness.service.saveNow()
        #expect(tab.history.items.map(\.url) == ["https://real.example/page", "https://down.example/"])
        #expect(harness.urlsOnDisk() == ["https://down.example/"])
    }
}
