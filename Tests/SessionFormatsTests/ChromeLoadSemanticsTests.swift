import SessionModel
import TestSupport
import Testing

@testable import SessionFormats

/// Chrome's loading semantics (docs/chrome-ios-format.md, how Chrome loads) as a pure function.
@Suite struct ChromeLoadSemanticsTests {
    init() { Browsers.install() }

    private func tab(_ id: TabID, count: Int32 = 1, opener: Opener? = nil) -> Tab {
        Tab(id: id, title: "t\(id)", url: "https://\(id).example/", navigationItemCount: count, opener: opener)
    }

    private func entries(_ ids: [TabID], extra: [String] = []) -> [ChromeLoadSemantics.DirectoryEntry] {
        [ChromeLoadSemantics.DirectoryEntry(name: "session_metadata.pb", isDirectory: false)]
            + ids.map { ChromeLoadSemantics.DirectoryEntry(name: Tab.directoryName(for: $0), isDirectory: true, children: ["data.pb"]) }
            + extra.map { ChromeLoadSemantics.DirectoryEntry(name: $0, isDirectory: false) }
    }

    /// The one test of a group range, which loading, validate and repair ask: Chromium's
    /// `start >= pinned`, a positive count, and the range inside the tabs.
    @Test func aRangeIsTakenOnlyInsideTheUnpinnedTabs() {
        #expect(ChromeLoadSemantics.rangeProblem(start: 1, count: 2, tabs: 3, pinned: 1) == nil)
        #expect(ChromeLoadSemantics.rangeProblem(start: 0, count: 3, tabs: 3, pinned: 0) == nil)
        #expect(ChromeLoadSemantics.rangeProblem(start: 1, count: 0, tabs: 3, pinned: 0) == "its count 0 is not positive")
        #expect(ChromeLoadSemantics.rangeProblem(start: -1, count: 1, tabs: 3, pinned: 0) == "it starts at -1")
        #expect(ChromeLoadSemantics.rangeProblem(start: 0, count: 1, tabs: 3, pinned: 2) == "it starts at 0, among the 2 pinned tabs")
        #expect(ChromeLoadSemantics.rangeProblem(start: 2, count: 2, tabs: 3, pinned: 0) == "tabs 2..<4 run past the 3 tabs")
        #expect(ChromeLoadSemantics.rangeProblem(start: 4, count: 1, tabs: 3, pinned: 0) == "tabs 4..<5 run past the 3 tabs")
        // Among the pinned tabs and past the end: Chrome's first failing test names it.
        #expect(ChromeLoadSemantics.rangeProblem(start: 1, count: 5, tabs: 3, pinned: 2) == "it starts at 1, among the 2 pinned tabs")
    }

    /// An opener is taken when it is another tab's index.
    @Test func anOpenerIsTakenWhenItIsAnotherTab() {
        let opener = { (index: Int32) in Opener(index: index, navigationIndex: 0) }
        #expect(ChromeLoadSemantics.openerProblem(opener(0), of: 1, tabs: 2) == nil)
        #expect(ChromeLoadSemantics.openerProblem(opener(1), of: 1, tabs: 2) == .itself)
        #expect(ChromeLoadSemantics.openerProblem(opener(2), of: 1, tabs: 2) == .outOfRange)
        #expect(ChromeLoadSemantics.openerProblem(opener(-1), of: 1, tabs: 2) == .outOfRange)
    }

    /// Chrome keeps 75 items around the last committed one: `max(0, min(lci - 37, count - 75))`.
    @Test func aLongHistoryKeepsItsItemsAroundTheLastCommittedOne() {
        let history = { (count: Int, lci: Int32) in
            TabHistory(lastCommittedIndex: lci, items: (0..<count).map { NavigationItem(url: "https://\($0).example/") })
        }
        #expect(ChromeSaveSemantics.keptItems(history(75, 74)) == nil)
        #expect(ChromeSaveSemantics.keptItems(history(100, 99)) == 25..<100)
        #expect(ChromeSaveSemantics.keptItems(history(100, 0)) == 0..<75)
        #expect(ChromeSaveSemantics.keptItems(history(100, 50)) == 13..<88)
        #expect(ChromeSaveSemantics.keptItems(history(100, -1)) == 0..<75)
        let stored = ChromeSaveSemantics.storedHistory(history(100, 50))
        #expect(stored.items.first?.url == "https://13.example/" && stored.items.count == 75 && stored.lastCommittedIndex == 37)
    }

    @Test func anIntactSessionLoadsAsStored() {
        let session = Session(id: "w", activeIndex: 1, pinnedCount: 1, tabs: [tab(1), tab(2, opener: Opener(index: 0, navigationIndex: 0))])
        let outcome = ChromeLoadSemantics.load(
            metadata: ChromeProtoCodec.encodeSessionMetadata(session), entries: entries([1, 2]), id: "w", incognito: false)
        #expect(outcome.isLossless)
        #expect(outcome.session?.tabs.map(\.id) == [1, 2])
        #expect(outcome.session?.tabs.map(\.pinned) == [true, false])
        #expect(outcome.highestTabID == 2)
    }

    @Test func missingOrDamagedMetadataLosesTheWholeWindow() {
        let missing = ChromeLoadSemantics.load(metadata: nil, entries: entries([1]), id: "w", incognito: false)
        #expect(missing.loss == .metadataMissing)
        #expect(missing.deletedEntries == ["00000001"])
        let damaged = ChromeLoadSemantics.load(metadata: [0x0a, 0x05, 0x08], entries: entries([1]), id: "w", incognito: false)
        #expect(damaged.session == nil)
        if case .metadataUnparsable = damaged.loss {} else { Issue.record("expected unparsable, got \(String(describing: damaged.loss))") }
        let invalid = ChromeLoadSemantics.load(stored: Session(id: "w", tabs: [tab(1), tab(-4)]), entries: entries([1]))
        #expect(invalid.loss == .invalidTabID(index: 1, id: -4))
    }

    @Test func droppedTabsAreReindexedAround() {
        // Tabs: 1 (pinned), 2 (no items, pinned), 1 again (duplicate), 3 (opened by item 1), 4 (opened by item 2).
        let stored = Session(
            id: "w", activeIndex: 1, pinnedCount: 2,
            tabs: [
                tab(1), tab(2, count: 0), tab(1), tab(3, opener: Opener(index: 0, navigationIndex: 2)),
                tab(4, opener: Opener(index: 1, navigationIndex: 0))
            ],
            groups: [
                TabGroup(start: 2, count: 3, title: "g", id: TabGroupID(high: 0, low: 7)),
                TabGroup(start: 4, count: 2, id: TabGroupID(high: 0, low: 8))
            ])
        let outcome = ChromeLoadSemantics.load(stored: stored, entries: entries([1, 2, 3, 4], extra: ["stray", ".sessionctl-tmp.x"]))
        let session = try! #require(outcome.session)
        #expect(session.tabs.map(\.id) == [1, 3, 4])
        #expect(outcome.droppedTabs.map(\.reason) == [.noNavigationItems, .duplicateID])
        #expect(session.activeIndex == 2, "the dropped active tab hands over to the tab it opened (DetermineNewActiveIndex)")
        #expect(session.pinnedCount == 1)
        #expect(session.tabs[1].opener == Opener(index: 0, navigationIndex: 2))
        #expect(session.tabs[2].opener == nil)
        #expect(session.groups.map { [$0.start, $0.count] } == [[1, 2]])
        #expect(outcome.adjustments.contains(.openerCleared(tab: 4, storedIndex: 1)))
        // Removing the block {1, 2} moves group 1 (4+2, past the list) to 1+3, as Chromium's
        // RemovingIndexes computes it; it then runs past the 3 restored tabs.
        #expect(outcome.adjustments.contains(.groupRemoved(group: 1, reason: "tabs 1..<4 run past the 3 tabs")))
        #expect(outcome.deletedEntries == [".sessionctl-tmp.x", "00000002", "stray"])
    }

    @Test func deserialisationIgnoresWhatIsOutOfRange() {
        let stored = Session(
            id: "w", activeIndex: 9, pinnedCount: 7, tabs: [tab(5), tab(6)],
            groups: [TabGroup(start: 0, count: 1, id: TabGroupID(high: 0, low: 0))])
        let outcome = ChromeLoadSemantics.load(stored: stored, entries: entries([5]))
        #expect(outcome.session?.activeIndex == -1)
        #expect(outcome.session?.pinnedCount == 2)
        #expect(outcome.session?.groups.isEmpty == true, "a group starting among pinned tabs is skipped")
        #expect(outcome.tabsWithoutData == [6])
        #expect(outcome.adjustments.contains(.activeIndexChanged(from: 9, to: -1)))
    }
}
