/// The stored indexes Chrome removes from a window's list in one go, and where every other index
/// and every group range lands afterwards (Chromium's `RemovingIndexes`).
///
/// Index arithmetic follows Chromium exactly, quirks included: a negative index is left as it is,
/// an index past the list is shifted down by the removals below it, and a group range is moved by
/// the formula of the storage Chromium picks for the removals. When two or more contiguous indexes
/// are removed, that formula assumes the group touches the removed block: a group apart from it
/// grows over the gap (removing 3 and 4 turns a group on tab 0 into one on tabs 0-2).
public struct RemovedIndexes: Sendable, Hashable {
    /// The removed indexes, sorted, each once.
    public let sorted: [Int]

    public init<S: Sequence<Int>>(_ indexes: S) {
        sorted = Array(Set(indexes)).sorted()
    }

    /// The indexes of a sequence already strictly ascending (checked: any other order is sorted).
    public init<S: Sequence<Int>>(ascending indexes: S) {
        self.init(ascending: Array(indexes))
    }

    /// The indexes of an array already strictly ascending (checked: any other order is sorted);
    /// what the generic initializer does, without walking a sequence of another module generically.
    public init(ascending array: [Int]) {
        let ascending = zip(array, array.dropFirst()).allSatisfy { $0 < $1 }
        sorted = ascending ? array : Array(Set(array)).sorted()
    }

    /// Number of removed indexes.
    public var count: Int { sorted.count }
    public var isEmpty: Bool { sorted.isEmpty }

    /// True when `index` is removed.
    public func contains(_ index: Int) -> Bool {
        let position = lowerBound(index)
        return position < sorted.count && sorted[position] == index
    }

    /// Where `index` lands once the removals are done: -1 when it is removed itself.
    public func indexAfterRemoval(_ index: Int) -> Int {
        let position = lowerBound(index)
        if position < sorted.count && sorted[position] == index { return -1 }
        return index - position
    }

    /// The first removed index and the length up to the last one ((-1, 0) when nothing is removed).
    public var span: (start: Int, count: Int) {
        guard let first = sorted.first, let last = sorted.last else { return (-1, 0) }
        return (first, last + 1 - first)
    }

    /// A group range after the removals, or nil when it is empty (or was never valid).
    public func rangeAfterRemoval(start: Int, count: Int) -> (start: Int, count: Int)? {
        guard count > 0 else { return nil }
        let end = start + count
        let result: (start: Int, count: Int)
        if sorted.isEmpty {
            result = (start, count)
        } else if sorted.count == 1 {
            let removed = sorted[0]
            if removed < start {
                result = (start - 1, count)
            } else if removed < end {
                result = (start, count - 1)
            } else {
                result = (start, count)
            }
        } else if let first = sorted.first, let last = sorted.last, last + 1 == first + sorted.count {
            // Chromium's formula for one contiguous block of removals.
            let block = (start: first, end: first + sorted.count)
            let overlap = min(end, block.end) - max(start, block.start)
            result = (min(start, block.start), count - overlap)
        } else {
            let before = lowerBound(start)
            let inside = lowerBound(end) - before
            result = (start - before, count - inside)
        }
        return result.count > 0 ? result : nil
    }

    /// The number of removed indexes below `index`.
    private func lowerBound(_ index: Int) -> Int {
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < index { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
