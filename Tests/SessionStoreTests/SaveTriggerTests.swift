import FileSystemKit
import SessionFormats
import SessionModel
import TestSupport
import Testing

@testable import SessionStore

/// Every change that must save, through the delayed save on the virtual clock, and the immediate saves.
@Suite struct SaveTriggerTests {
    init() { Browsers.install() }

    /// A profile whose main window holds a, b, c (c active), saved.
    private func savedHarness() throws -> StoreHarness {
        let harness = try StoreHarness()
        let window = harness.window
        for name in ["a", "b", "c"] { window.openTab(url: "https://\(name).example/", title: name) }
        harness.service.saveNow()
        #expect(harness.records.count == 1)
        harness.fileSystem.reset()
        return harness
    }

    /// Runs a change and checks that nothing is written until the 2.5 s timer fires, then exactly one save.
    @discardableResult
    private func expectDelayedSave(_ harness: StoreHarness, _ change: () -> Void) -> SaveRecord? {
        let before = harness.records.count
        change()
        #expect(harness.writes.isEmpty, "a change must not write by itself")
        #expect(harness.service.isSaveScheduled)
        harness.clock.advance(by: .milliseconds(2499))
        #expect(harness.records.count == before)
        harness.clock.advance(by: .milliseconds(1))
        #expect(harness.records.count == before + 1)
        #expect(!harness.service.isSaveScheduled)
        let record = harness.records.last
        #expect(record?.trigger == .delayed)
        return record
    }

    private func writtenFiles(_ harness: StoreHarness) -> [String] {
        harness.writes.compactMap { call -> String? in
            if case .rename(_, let to) = call { return lastPathComponent(parentPath(to)) + "/" + lastPathComponent(to) }
            return nil
        }
    }

    @Test func insertSavesTheNewTabAndTheList() throws {
        let harness = try savedHarness()
        var tab: BrowserTab?
        let record = expectDelayedSave(harness) { tab = harness.window.openTab(url: "https://d.example/", title: "d") }
        #expect(harness.urlsOnDisk() == ["https://a.example/", "https://b.example/", "https://c.example/", "https://d.example/"])
        #expect(record?.sessions.first?.tabs.count == 4)
        let id = try #require(tab?.id)
        #expect(writtenFiles(harness) == ["\(Tab.directoryName(for: id))/data.pb", "{SyntheticIdentifier}/session_metadata.pb"])
        #expect(harness.loadFromDisk().session?.activeIndex == 3)
    }

    @Test func removeSavesTheListThenDeletesTheClosedTab() throws {
        let harness = try savedHarness()
        let tabs = harness.window.tabs.tabs
        try #require(tabs.count > 1)
        let closed = tabs[1]
        let record = expectDelayedSave(harness) { harness.window.tabs.close(at: 1) }
        #expect(harness.urlsOnDisk() == ["https://a.example/", "https://c.example/"])
        #expect(record?.deletedTabs[SessionKey(id: Session.syntheticIdentifier, incognito: false)] == [closed.id])
        #expect(!harness.directory.exists("Default/SessionStorage/{SyntheticIdentifier}/\(Tab.directoryName(for: closed.id))"))
        let commit = try #require(
            harness.writes.firstIndex {
                if case .rename(_, let to) = $0 { return to.hasSuffix("session_metadata.pb") }
                return false
            })
        let firstRemoval = try #require(
            harness.writes.firstIndex {
                if case .unlink = $0 { return true }
                return false
            })
        #expect(commit < firstRemoval, "closed tabs are removed only after the commit point")
        #expect(harness.loadFromDisk().isLossless)
    }

    @Test func activateSavesOnlyTheList() throws {
        let harness = try savedHarness()
        expectDelayedSave(harness) { harness.window.tabs.activate(at: 0) }
        #expect(harness.loadFromDisk().session?.activeIndex == 0)
        #expect(writtenFiles(harness) == ["{SyntheticIdentifier}/session_metadata.pb"])
    }

    @Test func replaceSavesTheNewTabAndDeletesTheReplacedOne() throws {
        let harness = try savedHarness()
        let window = harness.window
        let old = window.tabs.tabs[1]
        let prerendered = window.makeTab(url: "https://prerendered.example/", title: "p")
        let record = expectDelayedSave(harness) { window.tabs.replace(at: 1, with: prerendered) }
        #expect(harness.urlsOnDisk() == ["https://a.example/", "https://prerendered.example/", "https://c.example/"])
        #expect(writtenFiles(harness).first == "\(Tab.directoryName(for: prerendered.id))/data.pb")
        #expect(record?.deletedTabs.values.first == [old.id])
        #expect(harness.loadFromDisk().isLossless)
    }

    @Test func moveSavesTheNewOrder() throws {
        let harness = try savedHarness()
        expectDelayedSave(harness) { harness.window.tabs.move(from: 0, to: 2) }
        #expect(harness.urlsOnDisk() == ["https://b.example/", "https://c.example/", "https://a.example/"])
        #expect(harness.loadFromDisk().session?.activeIndex == 1, "the active tab follows the move")
        #expect(writtenFiles(harness) == ["{SyntheticIdentifier}/session_metadata.pb"])
    }

    @Test func navigationSavesTheTabsHistory() throws {
        let harness = try savedHarness()
        let tab = harness.window.tabs.tabs[0]
        expectDelayedSave(harness) { tab.navigate(to: "https://a.example/next", title: "a2") }
        #expect(harness.urlsOnDisk().first == "https://a.example/next")
        let data = harness.directory.bytes("Default/SessionStorage/{SyntheticIdentifier}/\(Tab.directoryName(for: tab.id))/data.pb")
        let history = try ChromeProtoCodec.decodeTabData(data)
        #expect(history.items.map(\.url) == ["https://a.example/", "https://a.example/next"])
        #expect(history.lastCommittedIndex == 1)
        #expect(harness.loadFromDisk().session?.tabs.first?.navigationItemCount == 2)
    }

    @Test func pinningAndGroupingSaveTheList() throws {
        let harness = try savedHarness()
        expectDelayedSave(harness) { harness.window.tabs.setPinned(true, at: 2) }
        #expect(harness.loadFromDisk().session?.pinnedCount == 1)
        #expect(harness.urlsOnDisk() == ["https://c.example/", "https://a.example/", "https://b.example/"])
        harness.fileSystem.reset()
        expectDelayedSave(harness) { harness.window.tabs.group(1..<3, title: "work", color: TabGroupColor(rawValue: 1)) }
        let groups = harness.loadFromDisk().session?.groups ?? []
        #expect(groups.map { [$0.start, $0.count] } == [[1, 2]])
        #expect(groups.first?.title == "work")
    }

    @Test func laterChangesDoNotExtendTheTimer() throws {
        let harness = try savedHarness()
        harness.window.openTab(url: "https://d.example/")
        harness.clock.advance(by: .seconds(2))
        harness.window.openTab(url: "https://e.example/")
        harness.clock.advance(by: .milliseconds(499))
        #expect(harness.records.count == 1)
        harness.clock.advance(by: .milliseconds(1))
        #expect(harness.records.count == 2, "one save, 2.5 s after the first change")
        #expect(harness.records.last?.sessions.first?.tabs.count == 5)
        harness.clock.advance(by: .seconds(10))
        #expect(harness.records.count == 2, "the coalesced changes are saved once")
        // A change after the save starts a new timer.
        harness.window.tabs.activate(at: 0)
        harness.clock.advance(by: .milliseconds(2500))
        #expect(harness.records.count == 3)
        #expect(harness.records.map(\.sequence) == [1, 2, 3])
    }

    @Test func backgroundSavesAtOnceAndCancelsTheTimer() throws {
        let harness = try savedHarness()
        harness.window.openTab(url: "https://d.example/")
        #expect(harness.service.isSaveScheduled)
        harness.service.sceneDidEnterBackground()
        #expect(harness.records.count == 2)
        #expect(harness.records.last?.trigger == .background)
        #expect(!harness.service.isSaveScheduled)
        #expect(harness.urlsOnDisk().count == 4)
        harness.clock.advance(by: .seconds(10))
        #expect(harness.records.count == 2, "the cancelled timer does not save again")
    }

    @Test func disconnectSavesAtOnceCancelsTheTimerAndKeepsTheSession() throws {
        let harness = try savedHarness()
        let window = harness.window
        window.tabs.close(at: 0)
        harness.service.sceneDidDisconnect(window)
        #expect(harness.records.last?.trigger == .disconnect)
        #expect(!harness.service.isSaveScheduled)
        #expect(harness.service.profile.regular.browsers.browsers.isEmpty)
        harness.clock.advance(by: .seconds(10))
        #expect(harness.records.count == 2)
        let reopened = try harness.service.openWindow()
        #expect(reopened !== window)
        #expect(reopened.tabs.tabs.map(\.url) == ["https://b.example/", "https://c.example/"])
        #expect(reopened.tabs.tabs.allSatisfy { !$0.isRealized })
    }

    @Test func noChangeNoSave() throws {
        let harness = try savedHarness()
        harness.clock.advance(by: .seconds(10))
        harness.service.sceneDidEnterBackground()
        #expect(harness.records.count == 1)
        #expect(harness.writes.isEmpty)
    }
}
