import SessionModel

/// Compares the tab groups of two versions of a session and says which group each tab is in.
enum GroupDiffer {
    /// The key a group is matched by: its id when it has a non-zero one, else its place among the
    /// groups without one.
    static func keys(_ groups: [TabGroup]) -> [String] {
        var anonymous = 0
        return groups.map { group in
            if let id = group.id, !id.isZero { return id.hex }
            anonymous += 1
            return "#\(anonymous)"
        }
    }

    /// For each tab index, the key of the group that holds it (the first one whose range covers it).
    static func membership(_ session: Session) -> [String?] {
        var result = [String?](repeating: nil, count: session.tabs.count)
        for (group, key) in zip(session.groups, keys(session.groups)) {
            for index in group.memberIndexes(tabCount: session.tabs.count) where result[index] == nil {
                result[index] = key
            }
        }
        return result
    }

    /// Added, removed and changed groups; tab identities come from the tab matching, so a group
    /// whose range shifted because a tab was added before it has not changed.
    static func compare(_ before: Session, _ after: Session, matching: TabMatching) -> GroupChanges {
        let keysBefore = keys(before.groups)
        let keysAfter = keys(after.groups)
        var afterByKey: [String: Int] = [:]
        for (index, key) in keysAfter.enumerated() where afterByKey[key] == nil { afterByKey[key] = index }
        var changes = GroupChanges()
        var matchedAfter = Set<Int>()
        for (index, group) in before.groups.enumerated() {
            guard let partner = afterByKey[keysBefore[index]], !matchedAfter.contains(partner) else {
                changes.removed.append(group)
                continue
            }
            matchedAfter.insert(partner)
            let other = after.groups[partner]
            var fields: [GroupField] = []
            if group.title != other.title { fields.append(.title) }
            if group.color != other.color { fields.append(.color) }
            if group.collapsed != other.collapsed { fields.append(.collapsed) }
            let membersBefore = group.memberIndexes(tabCount: before.tabs.count).map { matching.identityBefore[$0] }
            let membersAfter = other.memberIndexes(tabCount: after.tabs.count).map { matching.identityAfter[$0] }
            if membersBefore != membersAfter { fields.append(.tabs) }
            if !fields.isEmpty { changes.changed.append(GroupChange(before: group, after: other, fields: fields)) }
        }
        for (index, group) in after.groups.enumerated() where !matchedAfter.contains(index) {
            changes.added.append(group)
        }
        return changes
    }
}
