import SessionForensics
import SessionFormats
import SessionModel

/// Checks of a window's tab groups, read from Chrome's loading of the list
/// (`ChromeLoadSemantics.restore`): ranges moved by the dropped tabs, then checked as the list is built.
enum GroupRules {
    /// Why Chrome removes a stored group, or nil when it restores it.
    static func removal(_ number: Int, in list: ListSubject) -> String? {
        let group = list.session.groups[number]
        switch list.restored.groupFates[number] {
        case .restored, .duplicateID:
            return nil
        case .emptied:
            return group.count <= 0
                ? "its count \(group.count) is not positive"
                : "none of its tabs \(group.start)..<\(Int64(group.start) + Int64(group.count)) is restored"
        case .invalidRange(let start, let count):
            let moved =
                start == Int(group.start) && count == Int(group.count)
                ? "" : " (\(group.start)+\(group.count) as stored, \(start)+\(count) once the dropped tabs are taken out)"
            let pinned = Int(list.restored.filtered.pinnedCount)
            let problem = ChromeLoadSemantics.rangeProblem(
                start: start, count: count, tabs: list.restored.session.tabs.count, pinned: pinned)
            return (problem ?? "its range \(start)+\(count) is not taken") + moved
        }
    }

    /// `group-range-invalid`: groups with an empty range, one among the pinned tabs, past the end,
    /// or with none of their tabs restored are removed.
    static func ranges(_ list: ListSubject) -> [Finding] {
        list.session.groups.indices.compactMap { index in
            guard let problem = removal(index, in: list) else { return nil }
            let offset = list.layout.group(index).map { $0.range ?? $0.start }
            return list.scope.finding(
                .groupRangeInvalid, offset: offset,
                "group \(index) \(title(list.session.groups[index])) is removed: \(problem)")
        }
    }

    /// `group-id-zero`: a missing or all-zero id is replaced by a fresh one (groups Chrome restores).
    static func zeroIDs(_ list: ListSubject) -> [Finding] {
        list.session.groups.indices.compactMap { index in
            let group = list.session.groups[index]
            guard case .restored = list.restored.groupFates[index], group.id?.isZero ?? true else { return nil }
            let offset = list.layout.group(index).map { $0.id ?? $0.start }
            return list.scope.finding(
                .groupIDZero, offset: offset,
                "group \(index) \(title(group)) has \(group.id == nil ? "no id" : "an all-zero id"); Chrome gives it a fresh one")
        }
    }

    /// `group-id-duplicate`: a group whose id an earlier restored group has is removed.
    static func duplicateIDs(_ list: ListSubject) -> [Finding] {
        list.session.groups.indices.compactMap { index in
            guard case .duplicateID(let first) = list.restored.groupFates[index], let id = list.session.groups[index].id else { return nil }
            let offset = list.layout.group(index).map { $0.id ?? $0.start }
            return list.scope.finding(
                .groupIDDuplicate, offset: offset,
                "group \(index) \(title(list.session.groups[index])) has id \(id.hex), like group \(first); Chrome removes it")
        }
    }

    /// `group-color-out-of-range`: a colour outside 0-8 is shown grey.
    static func colors(_ list: ListSubject) -> [Finding] {
        list.session.groups.indices.compactMap { index in
            let group = list.session.groups[index]
            guard !group.color.isKnown else { return nil }
            let offset = list.layout.group(index).map(\.start)
            return list.scope.finding(
                .groupColorOutOfRange, offset: offset,
                "group \(index) \(title(group)) has colour \(group.color.rawValue) (valid: 0-8); Chrome shows it grey")
        }
    }

    /// All the rules of this file, in order.
    static func check(_ list: ListSubject) -> [Finding] {
        ranges(list) + duplicateIDs(list) + zeroIDs(list) + colors(list)
    }

    private static func title(_ group: TabGroup) -> String {
        group.title.isEmpty ? "(untitled)" : "\"\(group.title)\""
    }
}
