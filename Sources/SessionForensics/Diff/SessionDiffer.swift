import SessionModel

/// Compares two versions of one session (window).
enum SessionDiffer {
    /// Tabs added, removed, moved and changed; active index, pinned count and groups.
    ///
    /// A tab counts as moved only when its order relative to the other common tabs changed: the
    /// common tabs that keep their relative order are a longest increasing subsequence of their
    /// new positions, so the shift caused by an insertion or removal elsewhere is not a move.
    static func compare(_ before: Session, _ after: Session) -> SessionDiff {
        let matching = TabMatcher.match(before.tabs, after.tabs)
        var tabs = TabChanges()
        tabs.removed = matching.onlyBefore.map { TabPlacement(index: $0, tab: before.tabs[$0]) }
        tabs.added = matching.onlyAfter.map { TabPlacement(index: $0, tab: after.tabs[$0]) }

        let kept = Set(LongestIncreasingSubsequence.positions(in: matching.pairs.map(\.after)))
        tabs.moved = matching.pairs.enumerated()
            .filter { !kept.contains($0.offset) }
            .map { TabMove(from: $0.element.before, to: $0.element.after, tab: after.tabs[$0.element.after]) }
            .sorted { $0.to < $1.to }

        let comparer = TabComparer(before: before, after: after, matching: matching)
        tabs.changed = matching.pairs.compactMap { comparer.compare($0.before, $0.after) }.sorted { $0.toIndex < $1.toIndex }

        let groups = GroupDiffer.compare(before, after, matching: matching)
        let activeIndex = ValueChange.between(before.activeIndex, after.activeIndex)
        let pinnedCount = ValueChange.between(before.pinnedCount, after.pinnedCount)
        let same = tabs.isEmpty && groups.isEmpty && activeIndex == nil && pinnedCount == nil
        return SessionDiff(
            id: after.id, incognito: after.incognito, previousID: before.id == after.id ? nil : before.id,
            status: same ? .same : .changed, activeIndex: activeIndex, pinnedCount: pinnedCount,
            tabs: tabs, groups: groups, before: before, after: after)
    }

    /// A session only on the second side: all its tabs and groups are added.
    static func added(_ session: Session) -> SessionDiff {
        SessionDiff(
            id: session.id, incognito: session.incognito, status: .added,
            tabs: TabChanges(added: session.tabs.enumerated().map { TabPlacement(index: $0.offset, tab: $0.element) }),
            groups: GroupChanges(added: session.groups), before: nil, after: session)
    }

    /// A session only on the first side: all its tabs and groups are removed.
    static func removed(_ session: Session) -> SessionDiff {
        SessionDiff(
            id: session.id, incognito: session.incognito, status: .removed,
            tabs: TabChanges(removed: session.tabs.enumerated().map { TabPlacement(index: $0.offset, tab: $0.element) }),
            groups: GroupChanges(removed: session.groups), before: session, after: nil)
    }
}
