import SessionModel

/// Checks of a window's tab groups, as Chrome's loader applies them in order (section 5, step 7).
enum GroupRules {
    /// Why a group's range is skipped, or nil when it is valid.
    static func rangeProblem(_ group: TabGroup, tabs: Int, pinned: Int) -> String? {
        let start = Int64(group.start), count = Int64(group.count)
        if count <= 0 { return "its count \(count) is not positive" }
        if start < Int64(pinned) {
            return pinned > 0 ? "it starts at \(start), among the \(pinned) pinned tab\(plural(pinned))" : "it starts at \(start)"
        }
        if start + count > Int64(tabs) { return "tabs \(start)..<\(start + count) run past the \(tabs) tab\(plural(tabs))" }
        return nil
    }

    /// The pinned count Chrome applies: the stored one, within 0...tabs.
    static func effectivePinned(_ list: ListSubject) -> Int {
        max(0, min(Int(list.session.pinnedCount), list.count))
    }

    /// `group-range-invalid`: groups with an empty range, one among the pinned tabs, or past the end are removed.
    static func ranges(_ list: ListSubject) -> [Finding] {
        let pinned = effectivePinned(list)
        return list.session.groups.indices.compactMap { index in
            guard let problem = rangeProblem(list.session.groups[index], tabs: list.count, pinned: pinned) else { return nil }
            let offset = list.layout.group(index).map { $0.range ?? $0.start }
            return list.scope.finding(.groupRangeInvalid, offset: offset,
                                      "group \(index) \(title(list.session.groups[index])) is removed: \(problem)")
        }
    }

    /// `group-id-zero`: a missing or all-zero id is replaced by a fresh one (groups that survive their range check).
    static func zeroIDs(_ list: ListSubject) -> [Finding] {
        let pinned = effectivePinned(list)
        return list.session.groups.indices.compactMap { index in
            let group = list.session.groups[index]
            guard rangeProblem(group, tabs: list.count, pinned: pinned) == nil, group.id?.isZero ?? true else { return nil }
            let offset = list.layout.group(index).map { $0.id ?? $0.start }
            return list.scope.finding(.groupIDZero, offset: offset,
                                      "group \(index) \(title(group)) has \(group.id == nil ? "no id" : "an all-zero id"); Chrome gives it a fresh one")
        }
    }

    /// `group-id-duplicate`: a group whose id an earlier restored group has is removed.
    static func duplicateIDs(_ list: ListSubject) -> [Finding] {
        let pinned = effectivePinned(list)
        var firstWithID: [TabGroupID: Int] = [:]
        var findings: [Finding] = []
        for (index, group) in list.session.groups.enumerated() {
            guard rangeProblem(group, tabs: list.count, pinned: pinned) == nil, let id = group.id, !id.isZero else { continue }
            if let first = firstWithID[id] {
                let offset = list.layout.group(index).map { $0.id ?? $0.start }
                findings.append(list.scope.finding(.groupIDDuplicate, offset: offset,
                                                   "group \(index) \(title(group)) has id \(id.hex), like group \(first); Chrome removes it"))
            } else {
                firstWithID[id] = index
            }
        }
        return findings
    }

    /// All the rules of this file, in order.
    static func check(_ list: ListSubject) -> [Finding] {
        ranges(list) + duplicateIDs(list) + zeroIDs(list)
    }

    private static func title(_ group: TabGroup) -> String {
        group.title.isEmpty ? "(untitled)" : "\"\(group.title)\""
    }
}
