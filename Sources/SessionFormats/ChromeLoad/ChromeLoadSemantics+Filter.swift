import SessionModel

extension ChromeLoadSemantics {
    /// A stored list after Chrome's filtering (steps 3, 4 and 7 of section 5).
    public struct Restored: Sendable {
        /// The window as Chrome builds it; tab histories are left as they were in the input.
        public var session: Session
        public var dropped: [DroppedTab]
        public var adjustments: [Adjustment]
    }

    /// Filters a decoded list as Chrome does when it restores it: tabs with no navigation items and
    /// duplicate ids dropped (the first kept), then the active index, pinned count, openers and
    /// group ranges re-indexed, and what deserialisation ignores (out-of-range active index or
    /// opener, invalid or repeated groups) removed.
    ///
    /// Invalid ids (<= 0) are not handled here: Chrome loses the whole session for them (see `load`).
    /// When the active tab is dropped, the next restored tab after it becomes active, else the one
    /// before it [inferred]. Group ids that are all zero are kept and reported: Chrome gives them a
    /// fresh id, which a pure function cannot choose.
    public static func restore(_ stored: Session) -> Restored {
        let count = stored.tabs.count
        var dropped: [DroppedTab] = []
        var adjustments: [Adjustment] = []
        var seen = Set<TabID>()
        var newIndex = [Int?](repeating: nil, count: count)
        var kept: [Tab] = []
        for (index, tab) in stored.tabs.enumerated() {
            if tab.navigationItemCount == 0 {
                dropped.append(DroppedTab(index: index, id: tab.id, reason: .noNavigationItems))
            } else if seen.contains(tab.id) {
                dropped.append(DroppedTab(index: index, id: tab.id, reason: .duplicateID))
            } else {
                seen.insert(tab.id)
                newIndex[index] = kept.count
                kept.append(tab)
            }
        }

        // Active index: re-indexed; re-chosen when it pointed at a dropped tab; none when out of range.
        let storedActive = Int(stored.activeIndex)
        var active: Int32 = -1
        if (0..<count).contains(storedActive) {
            if let mapped = newIndex[storedActive] {
                active = Int32(mapped)
            } else if let next = newIndex[storedActive...].compactMap({ $0 }).first {
                active = Int32(next)
            } else if let previous = newIndex[..<storedActive].compactMap({ $0 }).last {
                active = Int32(previous)
            }
        }
        let sameTabActive = (0..<count).contains(storedActive) && newIndex[storedActive] != nil
        if !sameTabActive && stored.activeIndex != -1 {
            adjustments.append(.activeIndexChanged(from: stored.activeIndex, to: active))
        }

        // Pinned count: the restored tabs among the first `pinned_item_count` stored ones.
        let storedPinned = min(max(Int(stored.pinnedCount), 0), count)
        let pinned = Int32(newIndex[..<storedPinned].compactMap { $0 }.count)
        if pinned != stored.pinnedCount {
            adjustments.append(.pinnedCountChanged(from: stored.pinnedCount, to: pinned))
        }
        for index in kept.indices { kept[index].pinned = index < Int(pinned) }

        // Openers: re-indexed; cleared when they point at a dropped tab or out of the list.
        for (index, tab) in kept.enumerated() {
            guard let opener = tab.opener else { continue }
            let target = Int(opener.index)
            if (0..<count).contains(target), let mapped = newIndex[target] {
                kept[index].opener = Opener(index: Int32(mapped), navigationIndex: opener.navigationIndex)
            } else {
                kept[index].opener = nil
                adjustments.append(.openerCleared(tab: tab.id, storedIndex: opener.index))
            }
        }

        let groups = restoreGroups(stored.groups, storedCount: count, newIndex: newIndex,
                                   restoredCount: kept.count, pinned: Int(pinned), adjustments: &adjustments)
        var session = stored
        session.tabs = kept
        session.activeIndex = active
        session.pinnedCount = pinned
        session.groups = groups
        return Restored(session: session, dropped: dropped, adjustments: adjustments)
    }

    /// Re-maps group ranges onto the restored tabs and skips the groups Chrome skips.
    private static func restoreGroups(
        _ stored: [TabGroup], storedCount: Int, newIndex: [Int?], restoredCount: Int, pinned: Int,
        adjustments: inout [Adjustment]
    ) -> [TabGroup] {
        var result: [TabGroup] = []
        var ids = Set<TabGroupID>()
        for (number, group) in stored.enumerated() {
            let start = Int(group.start)
            let length = Int(group.count)
            guard start >= 0, length > 0, start <= storedCount, start + length <= storedCount else {
                adjustments.append(.groupRemoved(group: number, reason: "range \(group.start)+\(group.count) is not inside the \(storedCount) stored tabs"))
                continue
            }
            let mapped = newIndex[start..<start + length].compactMap { $0 }
            guard let first = mapped.first else {
                adjustments.append(.groupRemoved(group: number, reason: "none of its tabs is restored"))
                continue
            }
            var restored = group
            restored.start = Int32(first)
            restored.count = Int32(mapped.count)
            if restored.start != group.start || restored.count != group.count {
                adjustments.append(.groupRangeChanged(
                    group: number, from: RangeValue(start: group.start, count: group.count),
                    to: RangeValue(start: restored.start, count: restored.count)))
            }
            guard first >= pinned else {
                adjustments.append(.groupRemoved(group: number, reason: "it starts among the pinned tabs"))
                continue
            }
            guard first + mapped.count <= restoredCount else {
                adjustments.append(.groupRemoved(group: number, reason: "its range passes the end of the list"))
                continue
            }
            if let id = restored.id, !id.isZero {
                guard ids.insert(id).inserted else {
                    adjustments.append(.groupRemoved(group: number, reason: "its id \(id.hex) repeats an earlier group's"))
                    continue
                }
            } else {
                adjustments.append(.groupIDRegenerated(group: number))
            }
            result.append(restored)
        }
        return result
    }
}
