import SessionFormats
import SessionModel

/// Checks of a legacy window (session.plist) for what Chrome's legacy reader silently repairs.
///
/// Each function is one rule, testable on its own with a window built in memory.
enum LegacyRules {
    /// `legacy-selected-index-out-of-range`: NSNotFound or a tab's index; anything else becomes 0 (or none).
    static func selectedIndex(_ window: LegacyWindow, scope: FindingScope) -> [Finding] {
        let count = window.tabs.count
        guard !window.selectsNothing, !(0..<Int64(count)).contains(window.selectedIndex) else { return [] }
        let chosen = count > 0 ? "selects tab 0" : "selects nothing"
        return [scope.finding(.legacySelectedIndexOutOfRange, offset: window.offset,
                              "selectedIndex \(window.selectedIndex) is outside 0..<\(count); Chrome \(chosen)")]
    }

    /// `legacy-tab-id-invalid`: a missing or non-positive uniqueIdentifier is replaced.
    static func tabIDs(_ window: LegacyWindow, scope: FindingScope) -> [Finding] {
        window.tabs.enumerated().compactMap { index, tab in
            guard tab.validID == nil else { return nil }
            let stored = tab.uniqueIdentifier.map { "uniqueIdentifier \($0)" } ?? "no uniqueIdentifier"
            return scope.finding(.legacyTabIDInvalid, tab: TabReference(index: index, id: nil), offset: tab.offset,
                                 "tab \(index) has \(stored); Chrome gives it a new id")
        }
    }

    /// `legacy-last-committed-out-of-range`: clamped to the last entry (-1 when there is none).
    static func lastCommitted(_ window: LegacyWindow, scope: FindingScope) -> [Finding] {
        window.tabs.enumerated().compactMap { index, tab in
            let last = Int64(tab.items.count) - 1
            guard tab.lastCommittedItemIndex > last || tab.lastCommittedItemIndex < -1 else { return nil }
            let clamped = min(max(tab.lastCommittedItemIndex, -1), last)
            return scope.finding(.legacyLastCommittedOutOfRange, tab: reference(index, tab), offset: tab.offset,
                                 "tab \(index)'s lastCommittedItemIndex \(tab.lastCommittedItemIndex) with \(tab.items.count) entr\(tab.items.count == 1 ? "y" : "ies"); Chrome uses \(clamped)")
        }
    }

    /// `legacy-time-order`: a last-active time before the creation time is raised (a null time is left alone).
    static func timeOrder(_ window: LegacyWindow, scope: FindingScope) -> [Finding] {
        window.tabs.enumerated().compactMap { index, tab in
            guard !tab.lastActiveTime.isNull, tab.lastActiveTime < tab.creationTime else { return nil }
            return scope.finding(.legacyTimeOrder, tab: reference(index, tab), offset: tab.offset,
                                 "tab \(index) was last active at \(tab.lastActiveTime.iso8601 ?? "-"), before its creation at \(tab.creationTime.iso8601 ?? "-"); Chrome raises it")
        }
    }

    /// `legacy-pinned-not-prefix`: pinned tabs after the first unpinned one are not pinned.
    static func pinnedPrefix(_ window: LegacyWindow, scope: FindingScope) -> [Finding] {
        let prefix = window.pinnedPrefix
        return window.tabs.enumerated().compactMap { index, tab in
            guard tab.pinned, index >= prefix else { return nil }
            return scope.finding(.legacyPinnedNotPrefix, tab: reference(index, tab), offset: tab.offset,
                                 "tab \(index) is marked pinned after unpinned tab \(prefix); Chrome does not pin it")
        }
    }

    /// `legacy-user-agent-unknown`: a userAgentKey word Chrome does not know reads as NONE.
    static func userAgents(_ window: LegacyWindow, scope: FindingScope) -> [Finding] {
        window.tabs.enumerated().compactMap { index, tab in
            guard let word = tab.userAgentKey, !LegacyUserAgent.isKnown(word) else { return nil }
            return scope.finding(.legacyUserAgentUnknown, tab: reference(index, tab), offset: tab.offset,
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
