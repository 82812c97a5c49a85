import SessionModel

/// Compares a tab found on both sides field by field, in the context of its two sessions, so that
/// an opener or a group is compared by which tabs it means rather than by index.
struct TabComparer {
    let before: Session
    let after: Session
    let matching: TabMatching
    let groupsBefore: [String?]
    let groupsAfter: [String?]

    init(before: Session, after: Session, matching: TabMatching) {
        self.before = before
        self.after = after
        self.matching = matching
        self.groupsBefore = GroupDiffer.membership(before)
        self.groupsAfter = GroupDiffer.membership(after)
    }

    /// The opening tab as an identity shared across sides (or its raw index when out of range).
    private struct OpenerTarget: Hashable {
        var identity: Int?
        var outOfRangeIndex: Int32?
        var navigationIndex: Int32
    }

    private func openerTarget(_ opener: Opener?, identities: [Int]) -> OpenerTarget? {
        guard let opener else { return nil }
        let index = Int(opener.index)
        if identities.indices.contains(index) {
            return OpenerTarget(identity: identities[index], outOfRangeIndex: nil, navigationIndex: opener.navigationIndex)
        }
        return OpenerTarget(identity: nil, outOfRangeIndex: opener.index, navigationIndex: opener.navigationIndex)
    }

    /// What differs between the tab at `fromIndex` before and at `toIndex` after; nil when nothing does.
    func compare(_ fromIndex: Int, _ toIndex: Int) -> TabChange? {
        let old = before.tabs[fromIndex]
        let new = after.tabs[toIndex]
        var fields: [TabField] = []
        var historyChange: HistoryChange?
        var historyDiffers = old.navigationItemCount != new.navigationItemCount
        var bothHistories: (TabHistory, TabHistory)?
        switch (old.history, new.history) {
        case (let oldHistory?, let newHistory?):
            bothHistories = (oldHistory, newHistory)
            historyChange = HistoryComparer.compare(oldHistory.items, newHistory.items)
            if historyChange != nil { historyDiffers = true }
        case (nil, nil):
            break
        default:
            historyDiffers = true
        }

        if old.title != new.title { fields.append(.title) }
        if old.url != new.url { fields.append(.url) }
        if historyDiffers { fields.append(.history) }
        if let (oldHistory, newHistory) = bothHistories, oldHistory.lastCommittedIndex != newHistory.lastCommittedIndex {
            fields.append(.lastCommittedIndex)
        }
        if old.pinned != new.pinned { fields.append(.pinned) }
        let openerDiffers =
            openerTarget(old.opener, identities: matching.identityBefore)
            != openerTarget(new.opener, identities: matching.identityAfter)
            || bothHistories.map { $0.0.hasOpener != $0.1.hasOpener } == true
        if openerDiffers { fields.append(.opener) }
        if groupsBefore[fromIndex] != groupsAfter[toIndex] { fields.append(.group) }
        if let (oldHistory, newHistory) = bothHistories, oldHistory.userAgent != newHistory.userAgent {
            fields.append(.userAgent)
        }
        if old.creationTime != new.creationTime { fields.append(.creationTime) }
        if old.lastActiveTime != new.lastActiveTime || old.lastActiveSinceBoot != new.lastActiveSinceBoot {
            fields.append(.lastActiveTime)
        }
        if old.salvaged != new.salvaged { fields.append(.salvaged) }

        guard !fields.isEmpty else { return nil }
        return TabChange(fromIndex: fromIndex, toIndex: toIndex, before: old, after: new, fields: fields, history: historyChange)
    }
}
