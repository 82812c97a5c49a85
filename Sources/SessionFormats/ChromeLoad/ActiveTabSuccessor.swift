import SessionModel

/// Which tab Chrome activates when the active one is removed from a stored list (Chromium's
/// `OrderController::DetermineNewActiveIndex`, read on the list as stored).
///
/// In order: the first tab the removed tab opened, then the first of its siblings (both searched
/// from the tab after it, wrapping round, so the first found wins over the nearest), then its
/// opener, then the nearest tab of the group holding the removed tabs, then the nearest tab of the
/// same section (pinned or not) outside collapsed groups, then of that section at all, then of the
/// other section. "Nearest" looks after the tab first, then before it. Openers are matched on
/// their index alone, and nothing is checked against the list's bounds: an opener index or a
/// pinned count past the list can give an index that activates no tab.
public struct ActiveTabSuccessor: Sendable {
    /// The list as stored: openers, groups and the pinned count are read from it.
    public let stored: Session
    public let removed: RemovedIndexes

    /// Collapsed groups' stored ranges, merged where they overlap and sorted.
    private let collapsed: [Bounds]

    /// A successor finder; removed indexes outside the list are ignored (Chrome never removes one).
    public init(stored: Session, removed: RemovedIndexes) {
        self.stored = stored
        let count = stored.tabs.count
        self.removed =
            removed.sorted.allSatisfy { (0..<count).contains($0) }
            ? removed : RemovedIndexes(removed.sorted.filter { (0..<count).contains($0) })
        var ranges = stored.groups.filter { $0.collapsed && $0.count > 0 }
            .map { Bounds(lower: Int($0.start), upper: Int($0.start) + Int($0.count)) }.sorted { $0.lower < $1.lower }
        var merged: [Bounds] = []
        for range in ranges {
            if let last = merged.last, range.lower <= last.upper {
                merged[merged.count - 1].upper = max(last.upper, range.upper)
            } else {
                merged.append(range)
            }
        }
        ranges = merged
        collapsed = ranges
    }

    /// The stored index of the tab to activate (before the removals), or -1 for none.
    public func successor(of active: Int) -> Int {
        let count = stored.tabs.count
        if active == -1 { return -1 }
        if count == removed.count { return -1 }
        if !removed.contains(active) { return active }
        // From here the active index is a removed one, so a tab's index.
        if let child = firstOpened(by: active, after: active) { return child }
        let opener = openerIndex(of: active)
        if opener != -1 {
            if let sibling = firstOpened(by: opener, after: active) { return sibling }
            if !removed.contains(opener) { return opener }
        }
        let span = removed.span
        if let first = groupRange(containing: span.start), let last = groupRange(containing: span.start + span.count - 1),
            first == last, let inGroup = nearest(to: active, in: first)
        {
            return inGroup
        }
        let pinned = Int(stored.pinnedCount)
        let inPinned = active < pinned
        // Bounds as Chromium takes them: a pinned count past the list is not clipped.
        let section = inPinned ? Bounds(lower: 0, upper: pinned) : Bounds(lower: pinned, upper: count)
        let other = inPinned ? Bounds(lower: pinned, upper: count) : Bounds(lower: 0, upper: pinned)
        if !collapsed.isEmpty,
            let found = nearest(to: active, in: section, skippingCollapsed: true)
        {
            return found
        }
        return nearest(to: active, in: section) ?? nearest(to: active, in: other) ?? -1
    }

    /// A half-open range of indexes that may be empty or reversed (no trap, unlike `Range`).
    private struct Bounds: Equatable {
        var lower: Int
        var upper: Int
    }

    /// The stored opener index of a tab, or -1 when it has none.
    private func openerIndex(of index: Int) -> Int {
        stored.tabs[index].opener.map { Int($0.index) } ?? -1
    }

    /// The first tab left whose opener is `opener`, searched from the tab after `start`, wrapping round.
    private func firstOpened(by opener: Int, after start: Int) -> Int? {
        let count = stored.tabs.count
        for step in 1..<max(count, 1) {
            let index = (start + step) % count
            if index == opener || removed.contains(index) { continue }
            if openerIndex(of: index) == opener { return index }
        }
        return nil
    }

    /// The stored range of the first group (in stored order) whose range holds `index`.
    private func groupRange(containing index: Int) -> Bounds? {
        for group in stored.groups {
            let start = Int(group.start)
            let end = Int(group.start) + Int(group.count)
            if group.count > 0, start <= index, index < end { return Bounds(lower: start, upper: end) }
        }
        return nil
    }

    /// The (merged) collapsed range holding `index`, if any, by binary search.
    private func collapsedRange(containing index: Int) -> Bounds? {
        var low = 0
        var high = collapsed.count
        while low < high {
            let middle = (low + high) / 2
            if collapsed[middle].lower <= index { low = middle + 1 } else { high = middle }
        }
        guard low > 0, index < collapsed[low - 1].upper else { return nil }
        return collapsed[low - 1]
    }

    /// The nearest tab left to `index` within `range`: any after it first, then the closest before
    /// it; with `skippingCollapsed`, none inside a collapsed group (whole groups are stepped over,
    /// so that a stored range of any size costs one step).
    private func nearest(to index: Int, in range: Bounds, skippingCollapsed: Bool = false) -> Int? {
        var candidate = index + 1
        while candidate < range.upper {
            if skippingCollapsed, let group = collapsedRange(containing: candidate) {
                candidate = group.upper
                continue
            }
            if !removed.contains(candidate) { return candidate }
            candidate += 1
        }
        candidate = index - 1
        while candidate >= range.lower {
            if skippingCollapsed, let group = collapsedRange(containing: candidate) {
                candidate = group.lower - 1
                continue
            }
            if !removed.contains(candidate) { return candidate }
            candidate -= 1
        }
        return nil
    }
}
