/// Where the kill loop kills its children: at chosen operations (the child stops dead before
/// them) and at random times (the parent sends SIGKILL).
public struct KillPlan: Sendable, Equatable {
    /// One run of the child and how it ends.
    public enum Kill: Sendable, Equatable {
        /// The child raises SIGKILL itself before operation `stopAt` (counted from 0), i.e. after `stopAt` operations.
        case operation(stopAt: Int)
        /// The parent sends SIGKILL after this fraction (0-1) of a full run's duration.
        case time(fraction: Double)
    }

    public var kills: [Kill]

    /// Half the kills (rounded up) before operations spread evenly over those that change what a
    /// file holds or which file a name is (a write, truncate, rename, link, unlink or rmdir: a kill
    /// before one leaves everything before it done and it undone), with seeded jitter; the rest
    /// at seeded random times.
    public init(kills count: Int, operations: [FileOperation], seed: UInt64) {
        var generator = SeededGenerator(seed: ContentHash.combine(seed, 0x6B69_6C6C))
        let candidates = operations.indices.filter { index in
            index > 0 && [.write, .truncate, .rename, .link, .unlink, .rmdir].contains(operations[index].kind)
        }
        let atOperations = min((count + 1) / 2, candidates.count)
        var points: [Int] = []
        if atOperations > 0 {
            let stride = Double(candidates.count) / Double(atOperations)
            for number in 0..<atOperations {
                let jitter = Double(generator.next() % 1000) / 1000 * stride
                points.append(candidates[min(candidates.count - 1, Int(Double(number) * stride + jitter))])
            }
        }
        kills = Array(Set(points)).sorted().map { Kill.operation(stopAt: $0) }
        while kills.count < count {
            kills.append(.time(fraction: 0.03 + Double(generator.next() % 10_000) / 10_000 * 0.94))
        }
    }
}
