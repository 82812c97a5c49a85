/// Where each stored tab of a list lands once Chrome has dropped some: 4 bytes a restored tab,
/// looked up both ways by binary search (restored tabs keep their stored order).
public struct RestoredPositions: Sendable, Hashable {
    /// The stored index of each restored tab, ascending.
    private let storedIndexes: [Int32]
    /// Number of stored tabs.
    public let storedCount: Int

    /// The positions of a list of `storedCount` tabs with `removed` taken out.
    public init(storedCount: Int, removing removed: RemovedIndexes) {
        self.storedCount = storedCount
        var kept: [Int32] = []
        kept.reserveCapacity(max(0, storedCount - removed.count))
        var next = removed.sorted.makeIterator()
        var skip = next.next()
        for index in 0..<storedCount {
            while let value = skip, value < index { skip = next.next() }
            if skip == index { continue }
            kept.append(Int32(truncatingIfNeeded: index))
        }
        storedIndexes = kept
    }

    /// Number of restored tabs.
    public var restoredCount: Int { storedIndexes.count }

    /// The restored index of the stored tab at `stored`, or nil when it is dropped (or not a tab).
    public func restoredIndex(ofStored stored: Int) -> Int? {
        guard (0..<storedCount).contains(stored) else { return nil }
        var low = 0
        var high = storedIndexes.count
        while low < high {
            let middle = (low + high) / 2
            if Int(storedIndexes[middle]) < stored { low = middle + 1 } else { high = middle }
        }
        return low < storedIndexes.count && Int(storedIndexes[low]) == stored ? low : nil
    }

    /// The stored index of the restored tab at `restored`, or nil when there is none.
    public func storedIndex(ofRestored restored: Int) -> Int? {
        storedIndexes.indices.contains(restored) ? Int(storedIndexes[restored]) : nil
    }

    /// Each stored tab's restored index, in stored order (nil for a dropped tab).
    public var restoredIndexes: [Int?] { (0..<storedCount).map { restoredIndex(ofStored: $0) } }
}
