/// The longest strictly increasing subsequence of a sequence of integers (patience sorting, O(n log n)).
enum LongestIncreasingSubsequence {
    /// Positions in `values` of one longest strictly increasing subsequence, in increasing order.
    ///
    /// Among several of the same length, the choice is deterministic: the one that ends at the
    /// smallest final value, each element preceded by the one that was current when it was seen.
    static func positions(in values: [Int]) -> [Int] {
        // tails[k]: position of the smallest value ending an increasing run of length k + 1.
        var tails: [Int] = []
        var previous = [Int](repeating: -1, count: values.count)
        for (position, value) in values.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[position] = tails[low - 1] }
            if low == tails.count { tails.append(position) } else { tails[low] = position }
        }
        var result: [Int] = []
        var position = tails.last ?? -1
        while position >= 0 {
            result.append(position)
            position = previous[position]
        }
        return result.reversed()
    }
}
