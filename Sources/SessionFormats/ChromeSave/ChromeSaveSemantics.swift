import SessionModel

/// How Chrome for iOS shapes what it writes (docs/chrome-ios-format.md, how Chrome writes), as pure
/// functions.
public enum ChromeSaveSemantics {
    /// The item metadata Chrome derives from a tab's stored history: the last committed item's
    /// display URL (virtual URL, or URL when that is empty) and title, and the number of items.
    public static func itemMetadata(for history: TabHistory) -> (title: String, url: String, count: Int32) {
        let item = history.lastCommittedItem
        return (item?.title ?? "", item?.displayURL ?? "", Int32(clamping: history.items.count))
    }

    /// The items Chrome keeps of a history longer than it stores (`ProfileLayout.maxNavigationItems`),
    /// around the last committed one; nil when it keeps them all.
    public static func keptItems(_ history: TabHistory) -> Range<Int>? {
        let limit = ProfileLayout.maxNavigationItems
        let count = history.items.count
        guard count > limit else { return nil }
        let first = max(0, min(Int(history.lastCommittedIndex) - limit / 2, count - limit))
        return first..<first + limit
    }

    /// The history as data.pb stores it: at most 75 items, trimmed around the last committed one
    /// (offset = max(0, min(lci - 37, count - 75))), and a virtual URL equal to the URL left out.
    public static func storedHistory(_ history: TabHistory) -> TabHistory {
        var result = history
        if let kept = keptItems(history) {
            result.items = Array(history.items[kept])
            result.lastCommittedIndex = history.lastCommittedIndex < 0 ? -1 : Int32(Int(history.lastCommittedIndex) - kept.lowerBound)
        }
        for index in result.items.indices where result.items[index].virtualURL == result.items[index].url {
            result.items[index].virtualURL = ""
        }
        return result
    }

    /// The list Chrome writes for a window: tabs with no navigation items and duplicate ids dropped
    /// (the first kept), and the active index, pinned count, openers and groups re-indexed (the
    /// same filter Chrome applies when loading).
    public static func listToWrite(_ session: Session) -> Session {
        ChromeLoadSemantics.restore(session).session
    }
}
