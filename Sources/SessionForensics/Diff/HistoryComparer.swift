import SessionModel

/// Compares two navigation histories item by item.
enum HistoryComparer {
    /// How `after`'s items differ from `before`'s, or nil when they are the same.
    ///
    /// Items kept unchanged are found as a longest common subsequence; between two kept items
    /// (and before the first, after the last), items of both sides are paired up as rewritten,
    /// and the rest count as appended (only after) or removed (only before).
    static func compare(_ before: [NavigationItem], _ after: [NavigationItem]) -> HistoryChange? {
        guard before != after else { return nil }
        let kept = commonSubsequence(before, after)
        var change = HistoryChange(appended: 0, removed: 0, rewritten: 0)
        var lastBefore = 0
        var lastAfter = 0
        for (keptBefore, keptAfter) in kept + [(before.count, after.count)] {
            let onlyBefore = keptBefore - lastBefore
            let onlyAfter = keptAfter - lastAfter
            let paired = min(onlyBefore, onlyAfter)
            change.rewritten += paired
            change.removed += onlyBefore - paired
            change.appended += onlyAfter - paired
            lastBefore = keptBefore + 1
            lastAfter = keptAfter + 1
        }
        return change
    }

    /// Index pairs of one longest common subsequence of equal items, in order.
    static func commonSubsequence(_ before: [NavigationItem], _ after: [NavigationItem]) -> [(Int, Int)] {
        let rows = before.count
        let columns = after.count
        guard rows > 0, columns > 0 else { return [] }
        // lengths[i][j]: length of the longest common subsequence of before[i...] and after[j...].
        var lengths = [[Int]](repeating: [Int](repeating: 0, count: columns + 1), count: rows + 1)
        for i in stride(from: rows - 1, through: 0, by: -1) {
            for j in stride(from: columns - 1, through: 0, by: -1) {
                lengths[i][j] = before[i] == after[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
            }
        }
        var pairs: [(Int, Int)] = []
        var i = 0
        var j = 0
        while i < rows, j < columns {
            if before[i] == after[j] {
                pairs.append((i, j))
                i += 1
                j += 1
            } else if lengths[i + 1][j] >= lengths[i][j + 1] {
                i += 1
            } else {
                j += 1
            }
        }
        return pairs
    }
}
