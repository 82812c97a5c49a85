import SessionForensics
import SessionFormats
import SessionModel

/// Checks of a tab's data.pb against Chrome's rules for histories and against its list entry.
///
/// Each function is one rule, testable on its own with a history built in memory.
enum HistoryRules {
    /// `tab-data-empty`: a history without items leaves a tab that is dropped at the next save.
    static func empty(_ data: TabDataSubject) -> [Finding] {
        guard data.history.items.isEmpty else { return [] }
        return [
            data.scope.finding(
                .tabDataEmpty, tab: data.tab, offset: data.layout.navigation,
                "data.pb holds no navigation items; the tab comes up blank and is dropped at the next save")
        ]
    }

    /// `history-too-long`: at most 75 items, trimmed around the last committed one.
    static func length(_ data: TabDataSubject) -> [Finding] {
        guard let kept = ChromeSaveSemantics.keptItems(data.history) else { return [] }
        let count = data.history.items.count
        let limit = kept.count
        let first = kept.lowerBound
        var lost: [String] = []
        if first > 0 { lost.append("0..<\(first)") }
        if first + limit < count { lost.append("\(first + limit)..<\(count)") }
        return [
            data.scope.finding(
                .historyTooLong, tab: data.tab, offset: data.layout.item(limit),
                "\(count) navigation items, more than \(limit); Chrome keeps \(first)..<\(first + limit) and deletes items \(lost.joined(separator: " and "))"
            )
        ]
    }

    /// `last-committed-out-of-range` and `last-committed-negative`: with items, -1 or an item's
    /// index. Chrome does not clamp it on this path: past the end it reads beyond the history when
    /// the tab is realized; below -1 the tab is realized with no page and no back history.
    static func lastCommitted(_ data: TabDataSubject) -> [Finding] {
        guard let rule = lastCommittedRule(data.history) else { return [] }
        let count = data.history.items.count
        let lci = Int(data.history.lastCommittedIndex)
        let offset = data.layout.lastCommittedIndex ?? data.layout.navigation
        if rule == .lastCommittedOutOfRange {
            return [
                data.scope.finding(
                    .lastCommittedOutOfRange, tab: data.tab, offset: offset,
                    "last committed item index \(lci) is outside 0..<\(count); Chrome reads past the history when the tab is realized (opened)"
                )
            ]
        }
        return [
            data.scope.finding(
                .lastCommittedNegative, tab: data.tab, offset: offset,
                "last committed item index \(lci) is below -1 with \(count) item\(plural(count)); Chrome realizes the tab with no page and no back history"
            )
        ]
    }

    /// `item-count-mismatch`: the list's item count must be the number of items in data.pb
    /// (reported against session_metadata.pb, whose count Chrome re-derives).
    static func itemCount(_ data: TabDataSubject) -> [Finding] {
        guard let entry = data.entry, !data.history.items.isEmpty, itemCountDiffers(entry.tab, data.history) else { return [] }
        let count = Int(entry.tab.navigationItemCount)
        return [
            entry.scope.finding(
                .itemCountMismatch, tab: data.tab, offset: entry.offsets.map { $0.itemCount ?? $0.start },
                "tab \(data.tab.index ?? 0) counts \(count) navigation item\(plural(count)), its data.pb holds \(data.history.items.count)")
        ]
    }

    /// `active-page-mismatch`: the list's title and URL are the last committed item's display URL
    /// and title (reported against session_metadata.pb, which Chrome rewrites).
    static func activePage(_ data: TabDataSubject) -> [Finding] {
        guard let entry = data.entry, let item = data.history.lastCommittedItem else { return [] }
        let differs = activePageDiffers(entry.tab, item)
        var differences: [String] = []
        if differs.url {
            differences.append("URL \(quoted(entry.tab.url)) instead of \(quoted(item.displayURL))")
        }
        if differs.title {
            differences.append("title \(quoted(entry.tab.title)) instead of \(quoted(item.title))")
        }
        guard !differences.isEmpty else { return [] }
        return [
            entry.scope.finding(
                .activePageMismatch, tab: data.tab, offset: entry.offsets.map { $0.activePage ?? $0.start },
                "tab \(data.tab.index ?? 0) shows \(differences.joined(separator: " and ")), its data.pb's last committed item (\(data.history.lastCommittedIndex))"
            )
        ]
    }

    /// `internal-url`: session-restore and error-page wrappers persisted in place of the real page.
    static func internalURLs(_ data: TabDataSubject) -> [Finding] {
        wrappers(in: data.history).map { index, wrapper in
            let real = wrapper.wrapped.map { "the real page is \(quoted($0))" } ?? "it names no real page"
            return data.scope.finding(
                .internalURL, tab: data.tab, offset: data.layout.item(index),
                "item \(index) is an internal://local/\(wrapper.kind) wrapper; \(real)")
        }
    }

    /// `tab-data-has-metadata`: Chrome writes data.pb with its metadata field empty.
    static func embeddedMetadata(_ data: TabDataSubject) -> [Finding] {
        guard let offset = data.layout.metadata else { return [] }
        return [
            data.scope.finding(
                .tabDataHasMetadata, tab: data.tab, offset: offset,
                "data.pb carries a metadata field (field 2); Chrome keeps tab metadata in session_metadata.pb and ignores it")
        ]
    }

    // The conditions of the rules above that repair acts on: each is tested here once, and
    // `SessionRebuilder` asks these rather than testing it again.

    /// `last-committed-out-of-range` or `last-committed-negative` when `history`'s last committed
    /// index breaks one: with items, it must be -1 or an item's index.
    static func lastCommittedRule(_ history: TabHistory) -> Rule? {
        let count = history.items.count
        let lci = Int(history.lastCommittedIndex)
        guard count > 0, lci != -1, !(0..<count).contains(lci) else { return nil }
        return lci >= count ? .lastCommittedOutOfRange : .lastCommittedNegative
    }

    /// `item-count-mismatch`: whether the list entry's item count is not the history's.
    static func itemCountDiffers(_ entry: Tab, _ history: TabHistory) -> Bool {
        Int(entry.navigationItemCount) != history.items.count
    }

    /// `active-page-mismatch`: whether the list entry's URL is not the last committed item's
    /// display URL, and whether its title is not the item's (when the item has one).
    static func activePageDiffers(_ entry: Tab, _ item: NavigationItem) -> (url: Bool, title: Bool) {
        (entry.url != item.displayURL, !item.title.isEmpty && entry.title != item.title)
    }

    /// `internal-url`: the items of `history` whose URL or virtual URL is an internal://local/
    /// wrapper, in order, with the wrapper.
    static func wrappers(in history: TabHistory) -> [(index: Int, wrapper: InternalURL)] {
        // Most histories hold no wrapper at all: find that out without copying items.
        guard history.items.contains(where: { InternalURL.mayBeWrapper($0.url) || InternalURL.mayBeWrapper($0.virtualURL) }) else {
            return []
        }
        return history.items.indices.compactMap { index in
            let item = history.items[index]
            return (InternalURL(item.url) ?? InternalURL(item.virtualURL)).map { (index, $0) }
        }
    }

    /// All the rules of this file, in order.
    static func check(_ data: TabDataSubject) -> [Finding] {
        empty(data) + length(data) + lastCommitted(data) + itemCount(data) + activePage(data)
            + internalURLs(data) + embeddedMetadata(data)
    }

    private static func quoted(_ text: String) -> String {
        let limit = 120
        return "\"" + (text.count > limit ? String(text.prefix(limit)) + "…" : text) + "\""
    }
}
