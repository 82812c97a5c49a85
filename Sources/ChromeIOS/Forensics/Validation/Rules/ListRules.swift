import SessionForensics
import SessionFormats
import SessionModel

/// Checks of a window's list (session_metadata.pb) about its tabs, active index, pinned count and openers.
///
/// Each function is one rule, testable on its own with a list built in memory.
enum ListRules {
    /// `tab-id-invalid`: identifiers must be positive int32 values.
    static func invalidTabIDs(_ list: ListSubject) -> [Finding] {
        var cap = FindingCap(rule: .tabIDInvalid, scope: list.scope)
        for index in list.session.tabs.indices where !list.session.tabs[index].hasValidID {
            cap.add {
                let tab = list.session.tabs[index]
                let offset = list.layout.item(index).map { $0.identifier ?? $0.start }
                return list.scope.finding(
                    .tabIDInvalid, tab: list.reference(index), offset: offset,
                    "tab \(index) has identifier \(tab.id); Chrome treats the whole session as corrupt, loads the window empty and deletes its \(list.count) tab\(plural(list.count))"
                )
            }
        }
        return cap.findings
    }

    /// `tab-id-duplicate`: a later tab with an id already restored is dropped.
    static func duplicateTabIDs(_ list: ListSubject) -> [Finding] {
        var cap = FindingCap(rule: .tabIDDuplicate, scope: list.scope)
        for index in 0..<list.count {
            guard case .duplicate(let first) = list.fate(index) else { continue }
            cap.add {
                let offset = list.layout.item(index).map { $0.identifier ?? $0.start }
                return list.scope.finding(
                    .tabIDDuplicate, tab: list.reference(index), offset: offset,
                    "tab \(index) has identifier \(list.session.tabs[index].id), like tab \(first); Chrome drops it")
            }
        }
        return cap.findings
    }

    /// `tab-no-history`: tabs whose item count is 0 are dropped, their directories deleted.
    static func tabsWithoutHistory(_ list: ListSubject) -> [Finding] {
        guard (0..<list.count).contains(where: { list.fate($0) == .noHistory }) else { return [] }
        let restoredIDs = Set((0..<list.count).lazy.filter { list.fate($0) == .kept }.map { list.session.tabs[$0].id })
        var cap = FindingCap(rule: .tabNoHistory, scope: list.scope)
        for index in 0..<list.count where list.fate(index) == .noHistory {
            cap.add {
                let id = list.session.tabs[index].id
                let offset = list.layout.item(index).map { $0.itemCount ?? $0.start }
                let directory =
                    restoredIDs.contains(id)
                    ? "its directory \(Tab.directoryName(for: id)) belongs to the restored tab with the same id"
                    : "deletes its directory \(Tab.directoryName(for: id))"
                return list.scope.finding(
                    .tabNoHistory, tab: list.reference(index), offset: offset,
                    "tab \(index) (#\(id)) has a navigation item count of 0; Chrome drops it and \(directory)")
            }
        }
        return cap.findings
    }

    /// `active-index-out-of-range`: -1 or a tab's index; anything else activates no tab (taking
    /// dropped tabs out never brings it back into the list).
    static func activeIndex(_ list: ListSubject) -> [Finding] {
        guard activeIndexOutOfRange(list.session) else { return [] }
        let index = Int(list.session.activeIndex)
        return [
            list.scope.finding(
                .activeIndexOutOfRange, offset: list.layout.activeIndex,
                "active index \(index) is outside 0..<\(list.count); Chrome activates no tab")
        ]
    }

    /// `pinned-count-out-of-range`: between 0 and the number of tabs. Chrome does not clamp it:
    /// tabs below it are pinned, so a count past the list pins every tab and leaves no group.
    static func pinnedCount(_ list: ListSubject) -> [Finding] {
        guard pinnedCountOutOfRange(list.session) else { return [] }
        let pinned = Int(list.session.pinnedCount)
        let outcome =
            pinned < 0
            ? "Chrome pins no tab"
            : "Chrome pins every tab\(list.session.groups.isEmpty ? "" : " and restores none of the groups, which cannot start among pinned tabs")"
        return [
            list.scope.finding(
                .pinnedCountOutOfRange, offset: list.layout.pinnedCount,
                "pinned count \(pinned) with \(list.count) tab\(plural(list.count)); \(outcome)")
        ]
    }

    /// `opener-out-of-range`: an opener applies only if 0 <= index < count.
    static func openers(_ list: ListSubject) -> [Finding] {
        var cap = FindingCap(rule: .openerOutOfRange, scope: list.scope)
        for index in list.session.tabs.indices {
            guard let opener = list.session.tabs[index].opener,
                ChromeLoadSemantics.openerProblem(opener, of: index, tabs: list.count) == .outOfRange
            else { continue }
            cap.add {
                let offset = list.layout.item(index).map { $0.opener ?? $0.start }
                return list.scope.finding(
                    .openerOutOfRange, tab: list.reference(index), offset: offset,
                    "tab \(index)'s opener index \(opener.index) is outside 0..<\(list.count); Chrome clears the opener")
            }
        }
        return cap.findings
    }

    /// `opener-self`: a restored tab that is its own opener stops current Chrome while it restores the window.
    static func selfOpeners(_ list: ListSubject) -> [Finding] {
        let positions = list.restored.positions
        var cap = FindingCap(rule: .openerSelf, scope: list.scope)
        for restoredIndex in list.restored.selfOpeners {
            guard let index = positions.storedIndex(ofRestored: restoredIndex) else { continue }
            cap.add {
                let offset = list.layout.item(index).map { $0.opener ?? $0.start }
                return list.scope.finding(
                    .openerSelf, tab: list.reference(index), offset: offset,
                    "tab \(index) (#\(list.session.tabs[index].id)) is its own opener; current Chrome stops on a CHECK when it restores the window (versions that only DCHECK ignored it)"
                )
            }
        }
        return cap.findings
    }

    // The conditions of the rules above that repair acts on: each is tested here once, and
    // `SessionRebuilder` asks these rather than testing it again.

    /// `active-index-out-of-range`: whether a list with tabs has an active index that is neither
    /// -1 nor a tab's index.
    static func activeIndexOutOfRange(_ session: Session) -> Bool {
        let index = Int(session.activeIndex)
        return !session.tabs.isEmpty && index != -1 && !session.tabs.indices.contains(index)
    }

    /// `pinned-count-out-of-range`: whether the pinned count is below 0 or past the list.
    static func pinnedCountOutOfRange(_ session: Session) -> Bool {
        session.pinnedCount < 0 || Int(session.pinnedCount) > session.tabs.count
    }

    /// All the rules of this file, in order.
    static func check(_ list: ListSubject) -> [Finding] {
        invalidTabIDs(list) + duplicateTabIDs(list) + tabsWithoutHistory(list)
            + activeIndex(list) + pinnedCount(list) + openers(list) + selfOpeners(list)
    }
}

/// "s" when `count` is not 1.
func plural(_ count: Int) -> String { count == 1 ? "" : "s" }
