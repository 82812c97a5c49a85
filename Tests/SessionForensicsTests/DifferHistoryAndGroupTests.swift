import SessionModel
import TestSupport
import Testing

@testable import SessionForensics

/// The Differ on navigation histories and tab groups.
@Suite struct DifferHistoryAndGroupTests {
    init() { Browsers.install() }

    typealias Data = DiffTestData

    func withHistories(_ paths: [[String]]) -> Session {
        var session = Data.session(paths.indices.map { TabID($0 + 1) })
        for (index, list) in paths.enumerated() {
            session.tabs[index].history = Data.history(list)
            session.tabs[index].navigationItemCount = Int32(list.count)
        }
        return session
    }

    /// A tab id given to another tab (as a repair does with a repeated id) does not make the two
    /// one tab: with histories read, nothing in common and another creation time, the old tab is
    /// removed and the new one added; the same id with a page in common, or the same creation
    /// time, is one tab that changed.
    @Test func tabsAreMatchedByWhatTheyAreNotByIdAlone() {
        let before = withHistories([["a", "b"], ["c"]])
        var other = withHistories([["x", "y"], ["c", "d"]])
        other.tabs[0].creationTime = Timestamp(microseconds: before.tabs[0].creationTime.microseconds + 5_000_000)
        other.tabs[1].creationTime = Timestamp(microseconds: before.tabs[1].creationTime.microseconds + 5_000_000)
        let diff = Differ.compare(before, other)
        #expect(diff.tabs.removed.map(\.tab.id) == [1] && diff.tabs.added.map(\.tab.id) == [1])
        #expect(diff.tabs.changed.map(\.after.id) == [2], "a page in common: one tab")
        var sameCreation = withHistories([["x", "y"], ["c"]])
        sameCreation.tabs[0].url = "https://example.com/x"
        #expect(Differ.compare(before, sameCreation).tabs.changed.map(\.after.id) == [1], "the same creation time: one tab")
        var withoutHistories = other
        for index in withoutHistories.tabs.indices { withoutHistories.tabs[index].history = nil }
        var beforeWithout = before
        for index in beforeWithout.tabs.indices { beforeWithout.tabs[index].history = nil }
        #expect(Differ.compare(beforeWithout, withoutHistories).tabs.removed.isEmpty, "without histories, the id decides")
    }

    @Test func historyAppendedRemovedRewritten() {
        let before = withHistories([["a", "b"], ["a", "b", "c"], ["a", "b", "c"], ["a", "b"]])
        var after = withHistories([["a", "b", "c"], ["a", "b"], ["a", "x", "c"], ["a", "b"]])
        after.tabs[3].history?.items[1].title = "New title"
        let changes = Differ.compare(before, after).tabs.changed
        #expect(changes.map(\.after.id) == [1, 2, 3, 4])
        #expect(
            changes.map(\.history) == [
                HistoryChange(appended: 1, removed: 0, rewritten: 0),
                HistoryChange(appended: 0, removed: 1, rewritten: 0),
                HistoryChange(appended: 0, removed: 0, rewritten: 1),
                HistoryChange(appended: 0, removed: 0, rewritten: 1)
            ])
        #expect(changes[0].fields == [.history, .lastCommittedIndex])
        #expect(changes[2].fields == [.history])
    }

    @Test func historyTrimmedAtTheFront() {
        // Chrome keeps at most 75 items: dropping the oldest while adding one is not a rewrite of all.
        let paths = (0..<75).map { "p\($0)" }
        let before = withHistories([paths])
        var after = before
        var items = Data.history(paths).items
        items.removeFirst()
        items.append(Data.item("p75", time: 75))
        after.tabs[0].history?.items = items
        let change = Differ.compare(before, after).tabs.changed.first
        #expect(change?.history == HistoryChange(appended: 1, removed: 1, rewritten: 0))
    }

    @Test func lastCommittedIndexAndUserAgent() {
        let before = withHistories([["a", "b"]])
        var after = before
        after.tabs[0].history?.lastCommittedIndex = 0
        after.tabs[0].history?.userAgent = .desktop
        after.tabs[0].history?.hasOpener = true
        let change = Differ.compare(before, after).tabs.changed.first
        #expect(change?.fields == [.lastCommittedIndex, .opener, .userAgent])
        #expect(change?.history == nil)
    }

    @Test func historyReadOnOneSideOnlyIsAChange() {
        let before = withHistories([["a"]])
        var after = before
        after.tabs[0].history = nil
        #expect(Differ.compare(before, after).tabs.changed.map(\.fields) == [[.history]])
    }

    func grouped(_ ids: [TabID], _ groups: [TabGroup]) -> Session {
        var session = Data.session(ids)
        session.groups = groups
        return session
    }

    let work = TabGroupID(high: 1, low: 10)
    let play = TabGroupID(high: 2, low: 20)

    @Test func groupsAddedRemovedChanged() {
        let before = grouped([1, 2, 3, 4], [TabGroup(start: 0, count: 2, title: "Work", color: .grey, id: work)])
        let after = grouped(
            [1, 2, 3, 4],
            [
                TabGroup(start: 0, count: 2, title: "Job", color: TabGroupColor(rawValue: 1), collapsed: true, id: work),
                TabGroup(start: 2, count: 2, title: "Play", id: play)
            ])
        let diff = Differ.compare(before, after)
        #expect(diff.groups.added.map(\.title) == ["Play"])
        #expect(diff.groups.removed.isEmpty)
        #expect(diff.groups.changed.map(\.fields) == [[.title, .color, .collapsed]])
        // Tabs 3 and 4 joined a group.
        #expect(diff.tabs.changed.map(\.after.id) == [3, 4])
        #expect(diff.tabs.changed.allSatisfy { $0.fields == [.group] })
        let back = Differ.compare(after, before)
        #expect(back.groups.removed.map(\.title) == ["Play"])
    }

    @Test func groupShiftedByAnInsertionIsUnchanged() {
        let before = grouped([1, 2, 3], [TabGroup(start: 1, count: 2, title: "Work", id: work)])
        let after = grouped([9, 1, 2, 3], [TabGroup(start: 2, count: 2, title: "Work", id: work)])
        let diff = Differ.compare(before, after)
        #expect(diff.groups.isEmpty)
        #expect(diff.tabs.changed.isEmpty)
        #expect(diff.tabs.added.map(\.tab.id) == [9])
    }

    @Test func groupMembershipChange() {
        let before = grouped([1, 2, 3], [TabGroup(start: 0, count: 2, title: "Work", id: work)])
        let after = grouped([1, 2, 3], [TabGroup(start: 0, count: 3, title: "Work", id: work)])
        let diff = Differ.compare(before, after)
        #expect(diff.groups.changed.map(\.fields) == [[.tabs]])
        #expect(diff.tabs.changed.map(\.after.id) == [3])
    }
}
