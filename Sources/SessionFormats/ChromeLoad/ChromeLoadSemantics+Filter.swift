import SessionModel

extension ChromeLoadSemantics {
    /// What becomes of one stored tab group when Chrome loads the list.
    public enum GroupFate: Sendable, Hashable {
        /// Restored as the group at this position of the restored list's groups.
        case restored(at: Int)
        /// Removed: its range holds no tab once the dropped tabs are taken out (or never held one).
        case emptied
        /// Skipped when the list is built: its range (after filtering) starts among the pinned tabs,
        /// before the first tab or past the list, or runs past the last tab.
        case invalidRange(start: Int, count: Int)
        /// Skipped: an earlier restored group has the same id.
        case duplicateID(of: Int)
    }

    /// A stored list after Chrome's filtering (`FilterItems`) and deserialisation.
    public struct Restored: Sendable {
        /// The window as Chrome builds it; tab histories are left as they were in the input.
        public var session: Session
        public var dropped: [DroppedTab]
        public var adjustments: [Adjustment]
        /// Each stored tab's index in the restored list, and back.
        public var positions: RestoredPositions
        /// The list after filtering, before deserialisation: the active index, pinned count,
        /// openers and group ranges as Chrome holds them then, nothing yet checked against bounds.
        public var filtered: Session
        /// What becomes of each stored group, by stored position.
        public var groupFates: [GroupFate]
        /// Restored tabs (restored indexes) that are their own opener: current Chrome stops on a
        /// CHECK when it restores them (versions before 2024 ignored it).
        public var selfOpeners: [Int]
    }

    /// The stored indexes Chrome drops from a list: tabs whose navigation item count is 0, and tabs
    /// whose id an earlier kept tab has (a tab dropped for its count does not claim its id).
    public static func droppedTabs(_ stored: Session) -> [DroppedTab] {
        var dropped: [DroppedTab] = []
        dropped.reserveCapacity(stored.tabs.reduce(0) { $0 + ($1.navigationItemCount == 0 ? 1 : 0) })
        var seen = Set<TabID>()
        for (index, tab) in stored.tabs.enumerated() {
            if tab.navigationItemCount == 0 {
                dropped.append(DroppedTab(index: index, id: tab.id, reason: .noNavigationItems))
            } else if !seen.insert(tab.id).inserted {
                dropped.append(DroppedTab(index: index, id: tab.id, reason: .duplicateID))
            }
        }
        return dropped
    }

    /// Removes stored tabs as Chrome's `FilterItems` does: nothing at all changes when nothing is
    /// removed; otherwise the active index moves as `ActiveTabSuccessor` decides, the pinned count
    /// loses the removed pinned tabs, openers to removed tabs are cleared and others re-indexed,
    /// and group ranges shrink (a group left empty is removed). Nothing is checked against bounds.
    public static func filterItems(_ stored: Session, removing removed: RemovedIndexes) -> Session {
        let (session, groups) = filter(stored, removing: removed)
        var result = session
        result.groups = groups.compactMap { $0 }
        return result
    }

    /// `filterItems`, with each stored group's filtered form in its stored place (nil when emptied).
    private static func filter(_ stored: Session, removing removed: RemovedIndexes) -> (Session, [TabGroup?]) {
        guard !removed.isEmpty else { return (stored, stored.groups) }
        var result = stored
        let successor = ActiveTabSuccessor(stored: stored, removed: removed).successor(of: Int(stored.activeIndex))
        result.activeIndex = Int32(clamping: removed.indexAfterRemoval(successor))
        let pinned = Int(stored.pinnedCount)
        result.pinnedCount = Int32(clamping: pinned - removed.sorted.prefix { $0 < pinned }.count)
        result.tabs = []
        result.tabs.reserveCapacity(stored.tabs.count - removed.count)
        for (index, var tab) in stored.tabs.enumerated() where !removed.contains(index) {
            if let opener = tab.opener {
                let target = Int(opener.index)
                tab.opener =
                    removed.contains(target)
                    ? nil : Opener(index: Int32(clamping: removed.indexAfterRemoval(target)), navigationIndex: opener.navigationIndex)
            }
            result.tabs.append(tab)
        }
        let groups = stored.groups.map { group -> TabGroup? in
            guard let range = removed.rangeAfterRemoval(start: Int(group.start), count: Int(group.count)) else { return nil }
            var moved = group
            moved.start = Int32(clamping: range.start)
            moved.count = Int32(clamping: range.count)
            return moved
        }
        result.groups = groups.compactMap { $0 }
        return (result, groups)
    }

    /// Loads a decoded list as Chrome does: the tabs of `droppedTabs` filtered out
    /// (`filterItems`), then the list built tab by tab: an active index or opener that is not a
    /// tab's is ignored, tabs below the pinned count are pinned, a group is skipped when its range
    /// starts among the pinned tabs or runs off the list or when its id repeats a restored group's,
    /// an all-zero id is replaced, and a colour outside 0-8 is shown grey.
    ///
    /// Invalid ids (<= 0) are not handled here: Chrome loses the whole session for them (see
    /// `load`). Group ids that are all zero are kept and reported: Chrome gives them a fresh id,
    /// which a pure function cannot choose.
    public static func restore(_ stored: Session) -> Restored {
        let dropped = droppedTabs(stored)
        let removed = RemovedIndexes(ascending: dropped.lazy.map(\.index))
        let (filtered, survivors) = filter(stored, removing: removed)
        let positions = RestoredPositions(storedCount: stored.tabs.count, removing: removed)
        var session = filtered
        let count = session.tabs.count
        var adjustments: [Adjustment] = []

        // Active index: only a tab's index activates a tab.
        if !(0..<count).contains(Int(filtered.activeIndex)) { session.activeIndex = -1 }
        let storedActive = Int(stored.activeIndex)
        let sameTab =
            (0..<stored.tabs.count).contains(storedActive) && positions.restoredIndex(ofStored: storedActive) == Int(session.activeIndex)
        if !sameTab && !(stored.activeIndex == -1 && session.activeIndex == -1) {
            adjustments.append(.activeIndexChanged(from: stored.activeIndex, to: session.activeIndex))
        }

        // Pinned: the tabs below the (filtered) pinned count.
        let pinned = Int(filtered.pinnedCount)
        session.pinnedCount = Int32(max(0, min(pinned, count)))
        if session.pinnedCount != stored.pinnedCount {
            adjustments.append(.pinnedCountChanged(from: stored.pinnedCount, to: session.pinnedCount))
        }
        for index in session.tabs.indices { session.tabs[index].pinned = index < pinned }

        // Openers: ignored unless they are a tab's index.
        var selfOpeners: [Int] = []
        for index in session.tabs.indices {
            if let opener = session.tabs[index].opener {
                switch openerProblem(opener, of: index, tabs: count) {
                case .outOfRange: session.tabs[index].opener = nil
                case .itself: selfOpeners.append(index)
                case nil: break
                }
            }
            if session.tabs[index].opener == nil, let storedIndex = positions.storedIndex(ofRestored: index),
                let original = stored.tabs[storedIndex].opener
            {
                adjustments.append(.openerCleared(tab: session.tabs[index].id, storedIndex: original.index))
            }
        }

        let (groups, fates) = restoreGroups(
            stored: stored, survivors: survivors, tabCount: count, pinned: pinned, adjustments: &adjustments)
        session.groups = groups
        return Restored(
            session: session, dropped: dropped, adjustments: adjustments, positions: positions,
            filtered: filtered, groupFates: fates, selfOpeners: selfOpeners)
    }

    /// The groups Chrome creates, and the fate of each stored group.
    private static func restoreGroups(
        stored: Session, survivors: [TabGroup?], tabCount: Int, pinned: Int, adjustments: inout [Adjustment]
    ) -> ([TabGroup], [GroupFate]) {
        var groups: [TabGroup] = []
        var fates: [GroupFate] = []
        var firstWithID: [TabGroupID: Int] = [:]
        for (number, survivor) in survivors.enumerated() {
            guard var group = survivor else {
                fates.append(.emptied)
                adjustments.append(.groupRemoved(group: number, reason: "none of its tabs is restored"))
                continue
            }
            let start = Int(group.start)
            let length = Int(group.count)
            // Chromium has no `start >= 0` test: a negative start passes only with a negative
            // pinned count, and then Chrome builds a group of indexes that do not exist (undefined).
            // The model calls such a group skipped.
            if let problem = rangeProblem(start: start, count: length, tabs: tabCount, pinned: pinned) {
                fates.append(.invalidRange(start: start, count: length))
                adjustments.append(.groupRemoved(group: number, reason: problem))
                continue
            }
            if let id = group.id, !id.isZero {
                if let first = firstWithID[id] {
                    fates.append(.duplicateID(of: first))
                    adjustments.append(.groupRemoved(group: number, reason: "its id \(id.hex) repeats group \(first)'s"))
                    continue
                }
                firstWithID[id] = number
            } else {
                adjustments.append(.groupIDRegenerated(group: number))
            }
            let original = stored.groups[number]
            if group.start != original.start || group.count != original.count {
                adjustments.append(
                    .groupRangeChanged(
                        group: number, from: RangeValue(start: original.start, count: original.count),
                        to: RangeValue(start: group.start, count: group.count)))
            }
            if !group.color.isKnown {
                adjustments.append(.groupColorDefaulted(group: number, stored: group.color.rawValue))
                group.color = .grey
            }
            fates.append(.restored(at: groups.count))
            groups.append(group)
        }
        return (groups, fates)
    }

    /// Why Chrome skips a group range of `tabs` tabs of which `pinned` are pinned, for a person;
    /// nil when it takes the range (the one test of a range: loading, validate and repair ask it).
    public static func rangeProblem(start: Int, count: Int, tabs: Int, pinned: Int) -> String? {
        if count <= 0 { return "its count \(count) is not positive" }
        if start < 0 { return "it starts at \(start)" }
        if start < pinned { return "it starts at \(start), among the \(min(pinned, tabs)) pinned tab\(pinned == 1 ? "" : "s")" }
        if start > tabs - count { return "tabs \(start)..<\(start + count) run past the \(tabs) tab\(tabs == 1 ? "" : "s")" }
        return nil
    }

    /// What Chrome does not take of the opener of tab `index` of `tabs` tabs: an index that is
    /// not a tab's (ignored), or the tab itself (current Chrome stops on a CHECK); nil when it
    /// takes it.
    public enum OpenerProblem: Sendable, Equatable {
        case outOfRange
        case itself
    }

    /// The problem Chrome finds with `opener` of tab `index` among `tabs` tabs, or nil.
    public static func openerProblem(_ opener: Opener, of index: Int, tabs: Int) -> OpenerProblem? {
        let target = Int(opener.index)
        if !(0..<tabs).contains(target) { return .outOfRange }
        return target == index ? .itself : nil
    }
}
