import SessionModel
import TestSupport
import Testing

@testable import SessionFormats

/// The expectations of Chromium's own unit tests (removing_indexes, order_controller,
/// session_loading, web_state_list_serialization, base/token), ported as facts onto this
/// project's model of how Chrome loads a stored list.
@Suite struct ChromiumLoadExpectationsTests {
    init() { Browsers.install() }

    private func tab(_ id: TabID, count: Int32 = 1, opener: Int32? = nil, nav: Int32 = 0) -> Tab {
        Tab(
            id: id, title: "t\(id)", url: "https://\(id).example/", navigationItemCount: count,
            opener: opener.map { Opener(index: $0, navigationIndex: nav) })
    }

    /// Tabs with ids 1...count, one navigation item each.
    private func tabs(_ count: TabID) -> [Tab] {
        (1...count).map { tab($0) }
    }

    private func group(_ start: Int32, _ count: Int32, id low: UInt64, color: Int32 = 0, collapsed: Bool = false) -> TabGroup {
        TabGroup(
            start: start, count: count, title: "g\(low)", color: TabGroupColor(rawValue: color),
            collapsed: collapsed, id: TabGroupID(high: 0, low: low))
    }

    private func range(_ removed: RemovedIndexes, _ start: Int, _ count: Int) -> [Int]? {
        removed.rangeAfterRemoval(start: start, count: count).map { [$0.start, $0.count] }
    }

    private func ranges(_ groups: [TabGroup]) -> [[Int32]] {
        groups.map { [$0.start, $0.count] }
    }

    private func checkRanges(_ removed: RemovedIndexes, _ rows: [(Int, Int, [Int]?)]) {
        for (start, count, expected) in rows {
            #expect(range(removed, start, count) == expected, "range (\(start),\(count)) removing \(removed.sorted)")
        }
    }

    // MARK: removing_indexes_unittest

    /// removing_indexes_unittest: IndexAfterRemoval.
    @Test func indexAfterRemoval() {
        let removed = RemovedIndexes([1, 3, 7])
        let rows: [(Int, Int)] = [(0, 0), (1, -1), (2, 1), (3, -1), (4, 2), (5, 3), (6, 4), (7, -1), (8, 5), (-1, -1)]
        for (index, expected) in rows {
            #expect(removed.indexAfterRemoval(index) == expected, "index \(index)")
        }
        #expect(removed.contains(3))
        #expect(!removed.contains(2))
    }

    /// removing_indexes_unittest: Span.
    @Test func span() {
        let span = RemovedIndexes([1, 3, 7]).span
        #expect([span.start, span.count] == [1, 7])
        let empty = RemovedIndexes([Int]()).span
        #expect([empty.start, empty.count] == [-1, 0])
    }

    /// removing_indexes_unittest: RangeAfterRemoval, removing nothing and removing {3}.
    @Test func rangeAfterRemovingNothingOrOneIndex() {
        checkRanges(RemovedIndexes([Int]()), [(0, 0, nil), (2, -1, nil), (0, 1, [0, 1]), (3, 4, [3, 4])])
        checkRanges(
            RemovedIndexes([3]),
            [
                (0, 1, [0, 1]), (3, 1, nil), (6, 1, [5, 1]), (0, 3, [0, 3]),
                (1, 3, [1, 2]), (2, 3, [2, 2]), (3, 3, [3, 2]), (4, 3, [3, 3])
            ])
    }

    /// removing_indexes_unittest: RangeAfterRemoval, removing the contiguous range {2,3,4}.
    @Test func rangeAfterRemovingContiguousRange() {
        checkRanges(
            RemovedIndexes([2, 3, 4]),
            [
                (1, 1, [1, 1]), (2, 1, nil), (3, 1, nil), (4, 1, nil), (5, 1, [2, 1]),
                (0, 2, [0, 2]), (1, 2, [1, 1]), (2, 2, nil), (3, 2, nil), (4, 2, [2, 1]), (5, 2, [2, 2]),
                (0, 3, [0, 2]), (1, 3, [1, 1]), (2, 3, nil), (3, 3, [2, 1]), (4, 3, [2, 2]),
                (0, 4, [0, 2]), (1, 4, [1, 1]), (2, 4, [2, 1]), (3, 4, [2, 2]),
                (0, 5, [0, 2]), (1, 5, [1, 2]), (2, 5, [2, 2])
            ])
    }

    /// removing_indexes_unittest: RangeAfterRemoval, removing the scattered indexes {1,3,4}.
    @Test func rangeAfterRemovingScatteredIndexes() {
        checkRanges(RemovedIndexes([1, 3, 4]), [(0, 1, [0, 1]), (1, 1, nil), (2, 1, [1, 1]), (3, 1, nil)])
    }

    /// removing_indexes.mm RangeStorage quirk (not covered by removing_indexes_unittest): a group apart
    /// from a contiguous block of removals grows over the gap.
    @Test func contiguousRemovalStretchesADistantGroup() {
        #expect(range(RemovedIndexes([3, 4]), 0, 1) == [0, 3])
        let stored = Session(id: "w", tabs: tabs(6), groups: [group(0, 1, id: 1)])
        let filtered = ChromeLoadSemantics.filterItems(stored, removing: RemovedIndexes([3, 4]))
        #expect(ranges(filtered.groups) == [[0, 3]])
    }

    // MARK: order_controller_unittest

    /// order_controller_unittest: DetermineNewActiveIndex (pre-removal indexes, and FilterItems' post-removal result).
    @Test func determineNewActiveIndex() {
        let openers: [Int: Int32] = [2: 7, 4: 0, 5: 0, 6: 1]
        let items = (0..<9).map { tab(TabID($0 + 1), opener: openers[$0]) }
        // (active, removed, new expected, old expected = after removal; nil where the old test had no row)
        let rows: [(Int, [Int], Int, Int?)] = [
            (0, Array(0...8), -1, -1), (-1, [], -1, -1),
            (4, [5], 4, 4), (6, [5], 6, 5), (4, [5, 7], 4, 4), (6, [5, 7], 6, 5), (7, [5, 6], 7, 5),
            (4, [4], 5, 4), (5, [5], 4, 4), (6, [6], 1, 1), (1, [1], 6, 5), (7, [7], 2, 2),
            (0, [0], 4, nil), (3, [3], 4, 3), (8, [8], 7, 7), (4, [4, 5], 0, 0),
            (0, [0, 4], 5, 3), (0, [0, 4, 5], 1, 0), (1, Array(1...8), 0, 0)
        ]
        for (active, removedList, expected, old) in rows {
            let stored = Session(id: "w", activeIndex: Int32(active), tabs: items)
            let removed = RemovedIndexes(removedList)
            #expect(
                ActiveTabSuccessor(stored: stored, removed: removed).successor(of: active) == expected,
                "active \(active) removing \(removedList)")
            if let old {
                #expect(
                    ChromeLoadSemantics.filterItems(stored, removing: removed).activeIndex == Int32(old),
                    "filtered active \(active) removing \(removedList)")
            }
        }
    }

    /// order_controller_unittest: DetermineNewActiveIndex_TabGroup.
    @Test func determineNewActiveIndexWithTabGroup() {
        let stored = Session(id: "w", tabs: tabs(6), groups: [group(0, 3, id: 1)])
        let rows: [(Int, [Int], Int)] = [
            (0, [1], 0), (3, [4, 5], 3), (2, [1, 3, 4], 2), (1, [1], 2),
            (2, [2], 1), (2, [1, 2], 0), (1, [0, 1, 2], 3), (2, [2, 4], 3)
        ]
        for (active, removed, expected) in rows {
            #expect(
                ActiveTabSuccessor(stored: stored, removed: RemovedIndexes(removed)).successor(of: active) == expected,
                "active \(active) removing \(removed)")
        }
    }

    /// order_controller_unittest: DetermineNewActiveIndex_CollapsedTabs.
    @Test func determineNewActiveIndexSkipsCollapsedTabs() {
        let list = tabs(3)
        let expanded = Session(id: "w", tabs: list, groups: [group(1, 1, id: 1)])
        #expect(ActiveTabSuccessor(stored: expanded, removed: RemovedIndexes([2])).successor(of: 2) == 1)
        let collapsed = Session(id: "w", tabs: list, groups: [group(1, 1, id: 1, collapsed: true)])
        #expect(ActiveTabSuccessor(stored: collapsed, removed: RemovedIndexes([2])).successor(of: 2) == 0)
    }

    // MARK: session_loading_unittest

    /// kSessionInfo: 5 tabs, active 1, pinned 2, tab 3 opened by 1 and tab 4 by 3 (navigation 1).
    private var sessionInfo: Session {
        Session(
            id: "w", activeIndex: 1, pinnedCount: 2,
            tabs: [tab(1), tab(2), tab(3), tab(4, opener: 1, nav: 1), tab(5, opener: 3, nav: 1)])
    }

    /// session_loading_unittest: FilterItems.
    @Test func filterItems() {
        let stored = sessionInfo
        #expect(ChromeLoadSemantics.filterItems(stored, removing: RemovedIndexes([Int]())) == stored)

        let all = ChromeLoadSemantics.filterItems(stored, removing: RemovedIndexes(0...4))
        #expect(all.tabs.isEmpty)
        #expect(all.activeIndex == -1)
        #expect(all.pinnedCount == 0)

        let some = ChromeLoadSemantics.filterItems(stored, removing: RemovedIndexes([1, 2]))
        #expect(some.activeIndex == 1, "the removed active tab's child (old 3) is activated")
        #expect(some.pinnedCount == 1)
        #expect(some.tabs.map(\.id) == [1, 4, 5])
        #expect(some.tabs.map(\.opener) == [nil, nil, Opener(index: 1, navigationIndex: 1)])
    }

    /// session_loading_unittest: LoadSessionStorage_FilterEmptyItems.
    @Test func loadFiltersEmptyItems() {
        let stored = Session(
            id: "w", activeIndex: 1, pinnedCount: 2,
            tabs: [tab(1, count: 0), tab(2), tab(3, count: 0), tab(4, opener: 1, nav: 1), tab(5, opener: 3, nav: 1)])
        let restored = ChromeLoadSemantics.restore(stored)
        #expect(restored.dropped.map(\.index) == [0, 2])
        #expect(restored.dropped.map(\.reason) == [.noNavigationItems, .noNavigationItems])
        #expect(restored.filtered == ChromeLoadSemantics.filterItems(stored, removing: RemovedIndexes([0, 2])))
        #expect(restored.positions.restoredIndexes == [nil, 0, nil, 1, 2])
        #expect(restored.session.tabs.map(\.id) == [2, 4, 5])
        #expect(restored.session.activeIndex == 0)
        #expect(restored.session.pinnedCount == 1)
        #expect(restored.session.tabs.map(\.pinned) == [true, false, false])
        #expect(restored.session.tabs.map(\.opener) == [nil, Opener(index: 0, navigationIndex: 1), Opener(index: 1, navigationIndex: 1)])
    }

    /// session_loading_unittest: LoadSessionStorage_FilterDuplicateItems.
    @Test func loadFiltersDuplicateItems() {
        let stored = Session(id: "w", activeIndex: 1, pinnedCount: 1, tabs: [tab(1), tab(1)])
        let restored = ChromeLoadSemantics.restore(stored)
        #expect(restored.dropped.map(\.index) == [1])
        #expect(restored.dropped.map(\.reason) == [.duplicateID])
        #expect(restored.filtered == ChromeLoadSemantics.filterItems(stored, removing: RemovedIndexes([1])))
        #expect(restored.session.tabs.map(\.id) == [1])
        #expect(restored.session.activeIndex == 0, "the regular section is empty: the pinned tab before is activated")
        #expect(restored.session.pinnedCount == 1)
    }

    /// session_loading_unittest: LoadSessionStorage_FilterDuplicateItemsWithGroups.
    @Test func loadFiltersDuplicateItemsWithGroups() {
        // Ids [S,S,O,S,A,Y,S,S,N] with S=1 O=2 A=3 Y=4 N=5.
        let stored = Session(
            id: "w", activeIndex: 0, pinnedCount: 0,
            tabs: ([1, 1, 2, 1, 3, 4, 1, 1, 5] as [TabID]).map { tab($0) },
            groups: [group(2, 2, id: 1), group(4, 2, id: 2), group(6, 1, id: 3), group(7, 2, id: 4)])
        let restored = ChromeLoadSemantics.restore(stored)
        #expect(restored.dropped.map(\.index) == [1, 3, 6, 7])
        #expect(restored.filtered == ChromeLoadSemantics.filterItems(stored, removing: RemovedIndexes([1, 3, 6, 7])))
        #expect(restored.session.tabs.map(\.id) == [1, 2, 3, 4, 5])
        #expect(restored.session.activeIndex == 0)
        #expect(ranges(restored.session.groups) == [[1, 1], [2, 2], [4, 1]])
        #expect(restored.session.groups.map { $0.id?.low } == [1, 2, 4])
        #expect(restored.groupFates == [.restored(at: 0), .restored(at: 1), .emptied, .restored(at: 2)])
    }

    // MARK: web_state_list_serialization_unittest and deserialisation facts

    /// web_state_list_serialization_unittest: Deserialize_Proto_TabGroupsInvalid.
    @Test func deserialiseSkipsAGroupRunningPastTheTabs() {
        let stored = Session(
            id: "w", activeIndex: 1, tabs: tabs(4),
            groups: [group(0, 1, id: 1), group(2, 4, id: 2)])
        let restored = ChromeLoadSemantics.restore(stored)
        #expect(ranges(restored.session.groups) == [[0, 1]])
        #expect(restored.groupFates == [.restored(at: 0), .invalidRange(start: 2, count: 4)])
        #expect(restored.session.activeIndex == 1)
    }

    /// tab_group_visual_data.cc (fact sheet §3): a colour outside 0-8 is restored grey.
    @Test func deserialiseShowsAnUnknownColourGrey() {
        let stored = Session(
            id: "w", tabs: tabs(3),
            groups: [group(0, 1, id: 1, color: 11), group(1, 1, id: 2, color: 8), group(2, 1, id: 3, color: -1)])
        let restored = ChromeLoadSemantics.restore(stored)
        #expect(restored.session.groups.map(\.color) == [.grey, TabGroupColor(rawValue: 8), .grey])
        #expect(restored.adjustments.contains(.groupColorDefaulted(group: 0, stored: 11)))
        #expect(restored.adjustments.contains(.groupColorDefaulted(group: 2, stored: -1)))
    }

    /// web_state_list_serialization.mm (fact sheet §2): a group repeating a restored group's id is skipped.
    @Test func deserialiseSkipsADuplicateGroupID() {
        let stored = Session(
            id: "w", tabs: tabs(3),
            groups: [group(0, 1, id: 7), group(1, 1, id: 7), group(2, 1, id: 8)])
        let restored = ChromeLoadSemantics.restore(stored)
        #expect(restored.groupFates == [.restored(at: 0), .duplicateID(of: 0), .restored(at: 1)])
        #expect(ranges(restored.session.groups) == [[0, 1], [2, 1]])
    }

    /// web_state_list_serialization.mm (fact sheet §2): a group starting among the pinned tabs is skipped.
    @Test func deserialiseSkipsAGroupAmongPinnedTabs() {
        let stored = Session(
            id: "w", pinnedCount: 1, tabs: tabs(3),
            groups: [group(0, 1, id: 1), group(1, 2, id: 2)])
        let restored = ChromeLoadSemantics.restore(stored)
        #expect(restored.groupFates == [.invalidRange(start: 0, count: 1), .restored(at: 0)])
        #expect(ranges(restored.session.groups) == [[1, 2]])
    }

    /// web_state_list_serialization.mm (fact sheet §2): an active index out of range activates no tab.
    @Test func deserialiseActivatesNoTabForAnOutOfRangeIndex() {
        for active: Int32 in [3, 7, -2] {
            let restored = ChromeLoadSemantics.restore(Session(id: "w", activeIndex: active, tabs: tabs(3)))
            #expect(restored.session.activeIndex == -1, "stored active \(active)")
            #expect(restored.adjustments.contains(.activeIndexChanged(from: active, to: -1)))
        }
    }

    /// web_state_list.mm CHECK_NE (fact sheet §2): a self-opener is reported; an out-of-range opener is ignored.
    @Test func deserialiseReportsSelfOpeners() {
        let stored = Session(id: "w", tabs: [tab(1), tab(2, opener: 1), tab(3, opener: 9), tab(4, opener: 0)])
        let restored = ChromeLoadSemantics.restore(stored)
        #expect(restored.selfOpeners == [1])
        #expect(restored.session.tabs.map { $0.opener?.index } == [nil, 1, nil, 0])
    }

    /// web_state_list_serialization.mm (fact sheet §2): a pinned count past the list pins every tab.
    @Test func deserialisePinsEveryTabForALargePinnedCount() {
        let stored = Session(id: "w", pinnedCount: 7, tabs: [tab(1), tab(2)], groups: [group(1, 1, id: 1)])
        let restored = ChromeLoadSemantics.restore(stored)
        #expect(restored.session.tabs.map(\.pinned) == [true, true])
        #expect(restored.session.pinnedCount == 2)
        #expect(restored.filtered.pinnedCount == 7)
        #expect(restored.groupFates == [.invalidRange(start: 1, count: 1)])
    }

    // MARK: base/token

    /// base/token.cc FromString (fact sheet §10): exactly 32 upper-case hex digits, high word first.
    @Test func tokenFromString() throws {
        let text = "00000000000000A10000000000000B02"
        #expect(text.count == 32)
        let id = try #require(TabGroupID(tokenString: text))
        #expect(id.high == 0xA1)
        #expect(id.low == 0xB02)
        #expect(id.hex == text)
        #expect(TabGroupID(tokenString: text.lowercased()) == nil)
        #expect(TabGroupID(tokenString: String(text.dropFirst())) == nil)
        #expect(TabGroupID(tokenString: "+" + String(repeating: "0", count: 31)) == nil)
        #expect(TabGroupID(tokenString: "+" + String(repeating: "0", count: 32)) == nil)
        #expect(TabGroupID(tokenString: String(repeating: "0", count: 32))?.isZero == true)
    }
}
