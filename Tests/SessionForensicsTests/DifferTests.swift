import SessionModel
import TestSupport
import Testing

@testable import SessionForensics

/// The Differ on sessions made in code: additions, removals, moves, changes, sessions on one side.
@Suite struct DifferTests {
    init() { Browsers.install() }

    typealias Data = DiffTestData

    @Test func identicalSessionsAreSame() {
        let sessions = [Data.session([1, 2, 3]), Data.session([4], id: "A"), Data.session([5], incognito: true)]
        let diff = Differ.compare(sessions, sessions)
        #expect(diff.identical)
        #expect(diff.sessions.map(\.status) == [.same, .same, .same])
        #expect(diff.sessions.allSatisfy { $0.tabs.isEmpty && $0.groups.isEmpty && $0.activeIndex == nil })
    }

    @Test func addedAndRemovedTabsByIndex() {
        let diff = Differ.compare(Data.session([1, 2, 3]), Data.session([1, 3, 4]))
        #expect(diff.status == .changed)
        #expect(diff.tabs.removed.map { [Int($0.tab.id), $0.index] } == [[2, 1]])
        #expect(diff.tabs.added.map { [Int($0.tab.id), $0.index] } == [[4, 2]])
        #expect(diff.tabs.moved.isEmpty)
        #expect(diff.tabs.changed.isEmpty)
    }

    @Test func insertionOrRemovalElsewhereIsNotAMove() {
        // A tab inserted at the front shifts every other tab; a removal shifts the ones after it.
        #expect(Differ.compare(Data.session([1, 2, 3, 4]), Data.session([9, 1, 2, 3, 4])).tabs.moved.isEmpty)
        #expect(Differ.compare(Data.session([1, 2, 3, 4]), Data.session([1, 3, 4])).tabs.moved.isEmpty)
        #expect(Differ.compare(Data.session([1, 2, 3, 4]), Data.session([2, 8, 3, 4, 9])).tabs.moved.isEmpty)
    }

    @Test func realReorderingsAreMoves() {
        let toFront = Differ.compare(Data.session([1, 2, 3, 4, 5]), Data.session([5, 1, 2, 3, 4]))
        #expect(Data.movedIDs(toFront) == [5])
        #expect(toFront.tabs.moved.first.map { [$0.from, $0.to] } == [4, 0])

        let toBack = Differ.compare(Data.session([1, 2, 3, 4, 5]), Data.session([2, 3, 4, 5, 1]))
        #expect(Data.movedIDs(toBack) == [1])
        #expect(toBack.tabs.moved.first.map { [$0.from, $0.to] } == [0, 4])

        let swap = Differ.compare(Data.session([1, 2, 3]), Data.session([2, 1, 3]))
        #expect(swap.tabs.moved.count == 1)

        // A move combined with an insertion: only the moved tab is reported.
        let mixed = Differ.compare(Data.session([1, 2, 3, 4, 5]), Data.session([1, 9, 4, 2, 3, 5]))
        #expect(Data.movedIDs(mixed) == [4])
        #expect(mixed.tabs.added.map(\.tab.id) == [9])

        let reversed = Differ.compare(Data.session([1, 2, 3, 4]), Data.session([4, 3, 2, 1]))
        #expect(reversed.tabs.moved.count == 3)
    }

    @Test func changedMetadataFields() {
        var after = Data.session([1, 2, 3, 4])
        after.tabs[0].title = "Renamed"
        after.tabs[1].url = "https://example.com/elsewhere"
        after.tabs[2].navigationItemCount = 3
        after.tabs[3].lastActiveTime = Timestamp(microseconds: 13_500_000_000_000_000)
        let diff = Differ.compare(Data.session([1, 2, 3, 4]), after)
        #expect(diff.tabs.changed.map(\.after.id) == [1, 2, 3, 4])
        #expect(diff.tabs.changed.map(\.fields) == [[.title], [.url], [.history], [.lastActiveTime]])
    }

    @Test func pinnedCountAndPinnedTabs() {
        var before = Data.session([1, 2, 3])
        var after = before
        after.pinnedCount = 1
        after.tabs[0].pinned = true
        let diff = Differ.compare(before, after)
        #expect(diff.pinnedCount == ValueChange(from: 0, to: 1))
        #expect(diff.tabs.changed.map(\.fields) == [[.pinned]])
        before.pinnedCount = 1
        before.tabs[0].pinned = true
        #expect(Differ.compare(before, before).status == .same)
    }

    @Test func activeIndexChange() {
        var after = Data.session([1, 2, 3])
        after.activeIndex = 2
        let diff = Differ.compare(Data.session([1, 2, 3]), after)
        #expect(diff.activeIndex == ValueChange(from: 0, to: 2))
        #expect(diff.status == .changed)
        #expect(diff.tabs.isEmpty)
    }

    @Test func openerIsComparedByTabNotIndex() {
        var before = Data.session([1, 2, 3])
        before.tabs[2].opener = Opener(index: 1, navigationIndex: 0)
        // Tab 9 inserted at the front: the opener index moves to 2 but still means tab 2.
        var shifted = Data.session([9, 1, 2, 3])
        shifted.tabs[3].opener = Opener(index: 2, navigationIndex: 0)
        #expect(Differ.compare(before, shifted).tabs.changed.isEmpty)
        // Same index, different tab: a change.
        var retargeted = Data.session([9, 1, 2, 3])
        retargeted.tabs[3].opener = Opener(index: 1, navigationIndex: 0)
        #expect(Differ.compare(before, retargeted).tabs.changed.map(\.fields) == [[.opener]])
        var cleared = before
        cleared.tabs[2].opener = nil
        #expect(Differ.compare(before, cleared).tabs.changed.map(\.fields) == [[.opener]])
    }

    @Test func sessionsOnOneSideOnly() {
        let diff = Differ.compare(
            [Data.session([1]), Data.session([2, 3], id: "B")],
            [Data.session([1]), Data.session([4], id: "C")])
        #expect(diff.sessions.map(\.id) == ["B", "C", Session.syntheticIdentifier])
        #expect(diff.sessions.map(\.status) == [.removed, .added, .same])
        #expect(diff.sessions[0].tabs.removed.map(\.tab.id) == [2, 3])
        #expect(diff.sessions[1].tabs.added.map(\.tab.id) == [4])
        #expect(!diff.identical)
    }

    @Test func incognitoIsPartOfASessionsIdentity() {
        let regular = Data.session([1, 2])
        let incognito = Data.session([1, 2], incognito: true)
        let diff = Differ.compare([regular], [incognito])
        #expect(diff.sessions.map(\.status) == [.removed, .added])
        #expect(diff.sessions.map(\.incognito) == [false, true])
        var changedIncognito = incognito
        changedIncognito.tabs.append(Data.tab(3))
        let both = Differ.compare([regular, incognito], [regular, changedIncognito])
        #expect(both.sessions.map(\.status) == [.same, .changed])
        #expect(both.sessions[1].incognito)
        #expect(both.sessions[1].tabs.added.map(\.tab.id) == [3])
    }

    @Test func loneSessionsArePairedOnlyWhenAsked() {
        let before = Data.session([1, 2], id: "old")
        let after = Data.session([1, 2, 3], id: "new")
        let paired = Differ.compare([before], [after], pairingLoneSessions: true)
        #expect(paired.sessions.count == 1)
        #expect(paired.sessions[0].id == "new")
        #expect(paired.sessions[0].previousID == "old")
        #expect(paired.sessions[0].tabs.added.map(\.tab.id) == [3])
        #expect(Differ.compare([before], [after]).sessions.map(\.status) == [.added, .removed])
    }

    @Test func tabsWithoutIDsMatchByURLAndCreationTime() {
        // Legacy sessions may have no tab ids: matched by url and creation time, in order.
        func idless(_ session: Session) -> Session {
            var copy = session
            for index in copy.tabs.indices { copy.tabs[index].id = 0 }
            return copy
        }
        let before = idless(Data.session([1, 2, 3]))
        var after = idless(Data.session([3, 1, 2]))
        after.tabs[1].title = "Changed"
        let diff = Differ.compare(before, after)
        #expect(diff.tabs.added.isEmpty && diff.tabs.removed.isEmpty)
        #expect(diff.tabs.moved.map { [$0.from, $0.to] } == [[2, 0]])
        #expect(diff.tabs.changed.map { [$0.fromIndex, $0.toIndex] } == [[0, 1]])
        // One side without ids, the other with them (a migrated session): still matched.
        let migrated = Differ.compare(before, Data.session([1, 2, 3]))
        #expect(migrated.tabs.added.isEmpty && migrated.tabs.removed.isEmpty && migrated.tabs.moved.isEmpty)
        // Two tabs with usable but different ids are different tabs, even at the same url and time.
        var renumbered = Data.session([1])
        renumbered.tabs[0].id = 2
        let distinct = Differ.compare(Data.session([1]), renumbered)
        #expect(distinct.tabs.added.count == 1 && distinct.tabs.removed.count == 1)
    }

    @Test func duplicateIDsFallBackToURLAndTime() {
        var before = Data.session([1, 2])
        before.tabs[1].id = 1
        var after = before
        after.tabs.swapAt(0, 1)
        let diff = Differ.compare(before, after)
        #expect(diff.tabs.added.isEmpty && diff.tabs.removed.isEmpty)
        #expect(diff.tabs.moved.count == 1)
    }
}
