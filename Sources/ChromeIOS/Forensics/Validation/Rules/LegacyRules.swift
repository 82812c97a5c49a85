import SessionForensics
import SessionFormats
import SessionModel

/// Checks of a legacy window (session.plist) for what Chrome's legacy reader silently repairs.
///
/// Each function is one rule, testable on its own with a window built in memory.
enum LegacyRules {
    /// `legacy-selected-index-out-of-range`: a tab's index (NSNotFound only in an empty window);
    /// anything else selects the first tab (nothing in an empty window).
    static func selectedIndex(_ window: LegacyWindow, scope: FindingScope) -> [Finding] {
        let count = window.tabs.count
        // NSNotFound in a window with tabs is how Chrome writes "no active tab"; it selects tab 0.
        let valid = count == 0 ? window.selectsNothing : (0..<Int64(count)).contains(window.selectedIndex) || window.selectsNothing
        guard !valid else { return [] }
        let stored = window.selectsNothing ? "NSNotFound" : String(window.selectedIndex)
        let chosen = count > 0 ? "selects tab 0" : "selects nothing"
        return [
            scope.finding(
                .legacySelectedIndexOutOfRange, offset: window.offset,
                "selectedIndex \(stored) is not a tab's index with \(count) tab\(plural(count)); Chrome \(chosen)")
        ]
    }

    /// `legacy-tab-id-invalid`: a missing or non-positive uniqueIdentifier is replaced.
    static func tabIDs(_ window: LegacyWindow, scope: FindingScope) -> [Finding] {
        window.tabs.enumerated().compactMap { index, tab in
            guard tab.validID == nil else { return nil }
            let stored = tab.uniqueIdentifier.map { "uniqueIdentifier \($0)" } ?? "no uniqueIdentifier"
            return scope.finding(
                .legacyTabIDInvalid, tab: TabReference(index: index, id: nil), offset: tab.offset,
                "tab \(index) has \(stored); Chrome gives it a new id")
        }
    }

    /// `legacy-last-committed-out-of-range`: lowered to the last entry (-1 when there is none);
    /// `last-committed-negative`: a value below -1 with entries, which Chrome keeps.
    static func lastCommitted(_ window: LegacyWindow, scope: FindingScope) -> [Finding] {
        window.tabs.enumerated().compactMap { index, tab in
            let last = Int64(tab.items.count) - 1
            let entries = "\(tab.items.count) entr\(tab.items.count == 1 ? "y" : "ies")"
            if tab.lastCommittedItemIndex > last || (tab.items.isEmpty && tab.lastCommittedItemIndex != -1) {
                let clamped = tab.items.isEmpty ? -1 : last
                return scope.finding(
                    .legacyLastCommittedOutOfRange, tab: reference(index, tab), offset: tab.offset,
                    "tab \(index)'s lastCommittedItemIndex \(tab.lastCommittedItemIndex) with \(entries); Chrome uses \(clamped)")
            }
            guard tab.lastCommittedItemIndex < -1 else { return nil }
            return scope.finding(
                .lastCommittedNegative, tab: reference(index, tab), offset: tab.offset,
                "tab \(index)'s lastCommittedItemIndex \(tab.lastCommittedItemIndex) with \(entries); Chrome keeps it and realizes the tab with no page and no back history"
            )
        }
    }

    /// `legacy-time-order`: a last-active time before the creation time is raised to it.
    static func timeOrder(_ window: LegacyWindow, scope: FindingScope) -> [Finding] {
        window.tabs.enumerated().compactMap { index, tab in
            // A missing time (files before M117 have none) is read as the creation time: no finding.
            guard !tab.lastActiveTime.isNull, tab.lastActiveTime < tab.creationTime else { return nil }
            let stored = "was last active at \(tab.lastActiveTime.iso8601 ?? "-")"
            return scope.finding(
                .legacyTimeOrder, tab: reference(index, tab), offset: tab.offset,
                "tab \(index) \(stored), before its creation at \(tab.creationTime.iso8601 ?? "-"); Chrome raises it to the creation time")
        }
    }

    /// `legacy-pinned-not-prefix`: Chrome's migration counts every tab marked pinned and pins that
    /// many tabs from the first, so marks that do not come first move.
    static func pinnedPrefix(_ window: LegacyWindow, scope: FindingScope) -> [Finding] {
        let pinned = window.pinnedFlagCount
        return window.tabs.enumerated().compactMap { index, tab in
            guard tab.pinned != (index < pinned) else { return nil }
            let becomes = index < pinned ? "is not marked pinned but comes up pinned" : "is marked pinned but comes up unpinned"
            return scope.finding(
                .legacyPinnedNotPrefix, tab: reference(index, tab), offset: tab.offset,
                "tab \(index) \(becomes): Chrome counts the \(pinned) tab\(plural(pinned)) marked pinned and pins the first \(pinned)")
        }
    }

    /// `legacy-user-agent-unknown`: a userAgentKey word Chrome does not know reads as NONE.
    static func userAgents(_ window: LegacyWindow, scope: FindingScope) -> [Finding] {
        window.tabs.enumerated().compactMap { index, tab in
            guard let word = tab.userAgentKey, !LegacyUserAgent.isKnown(word) else { return nil }
            return scope.finding(
                .legacyUserAgentUnknown, tab: reference(index, tab), offset: tab.offset,
                "tab \(index)'s userAgentKey is \"\(word.prefix(40))\"; Chrome reads it as NONE")
        }
    }

    /// All the rules of this file, in order.
    static func check(_ window: LegacyWindow, scope: FindingScope) -> [Finding] {
        selectedIndex(window, scope: scope) + tabIDs(window, scope: scope) + lastCommitted(window, scope: scope)
            + timeOrder(window, scope: scope) + pinnedPrefix(window, scope: scope) + userAgents(window, scope: scope)
    }

    private static func reference(_ index: Int, _ tab: LegacyTab) -> TabReference {
        TabReference(index: index, id: tab.validID)
    }
}
