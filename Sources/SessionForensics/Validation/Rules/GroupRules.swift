import SessionModel

/// Checks of a window's tab groups, as Chrome applies them: ranges re-mapped onto the restored
/// tabs (section 5, step 4), then the deserialisation conditions (step 7), in group order.
enum GroupRules {
    /// Why Chrome skips a group's range, or nil when the group is restored.
    static func rangeProblem(_ group: TabGroup, in list: ListSubject) -> String? {
        let start = Int64(group.start), count = Int64(group.count), tabs = Int64(list.count)
        if count <= 0 { return "its count \(count) is not positive" }
        if start < 0 { return "it starts at \(start)" }
        if start + count > tabs { return "tabs \(start)..<\(start + count) run past the \(tabs) tab\(plural(list.count))" }
        let restored = list.restoredIndex[Int(start)..<Int(start + count)].compactMap { $0 }
        guard let first = restored.first else { return "none of its tabs \(start)..<\(start + count) is restored" }
        if first < list.restoredPinned {
            return "it starts at \(start), among the \(list.restoredPinned) pinned tab\(plural(list.restoredPinned))"
        }
        return nil
    }

    /// `group-range-invalid`: groups with an empty range, one among the pinned tabs, past the end,
    /// or with none of their tabs restored are removed.
    static func ranges(_ list: ListSubject) -> [Finding] {
        list.session.groups.indices.compactMap { index in
            guard let problem = rangeProblem(list.session.groups[index], in: list) else { return nil }
            let offset = list.layout.group(index).map { $0.range ?? $0.start }
            return list.scope.finding(.groupRangeInvalid, offset: offset,
                                      "group \(index) \(title(list.session.groups[index])) is removed: \(problem)")
        }
    }

    /// `group-id-zero`: a missing or all-zero id is replaced by a fresh one (groups that survive their range check).
    static func zeroIDs(_ list: ListSubject) -> [Finding] {
        list.session.groups.indices.compactMap { index in
            let group = list.session.groups[index]
            guard rangeProblem(group, in: list) == nil, group.id?.isZero ?? true else { return nil }
            let offset = list.layout.group(index).map { $0.id ?? $0.start }
            return list.scope.finding(.groupIDZero, offset: offset,
                                      "group \(index) \(title(group)) has \(group.id == nil ? "no id" : "an all-zero id"); Chrome gives it a fresh one")
        }
    }

    /// `group-id-duplicate`: a group whose id an earlier restored group has is removed.
    static func duplicateIDs(_ list: ListSubject) -> [Finding] {
        var firstWithID: [TabGroupID: Int] = [:]
        var findings: [Finding] = []
        for (index, group) in list.session.groups.enumerated() {
            guard rangeProblem(group, in: list) == nil, let id = group.id, !id.isZero else { continue }
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
