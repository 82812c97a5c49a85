/// The points at which a crash during recovery is explored: after each of its operations but the
/// last (not right after an fsync, which leaves the same state), and within each of its writes
/// (cut after 1 byte, a third, two thirds).
///
/// Every point is explored by default. With a sample size (`crash-test --recovery-crash-sample`),
/// a recovery with more points than that (setting aside a session of a thousand tabs makes
/// thousands) is explored at a seeded sample of that many of them that always keeps the first
/// and last `edge` points and the first point after each kind of operation at each depth of
/// path, so that every kind of step recovery takes is crashed after at least once.
public struct RecoveryCrashPoints {
    /// A crash after `steps` operations of recovery, the next one (a write) cut after `cut` bytes.
    struct Point: Hashable {
        var steps: Int
        var cut: Int?
    }

    /// The smallest sample size: the points kept at both ends and a few more.
    public static let smallestSample = 2 * edge + 16
    /// Points kept at each end of a sampled recovery.
    static let edge = 64

    /// Every point of a recovery whose operations are `steps`, in order.
    static func all(_ steps: [FileOperation]) -> [Point] {
        var points: [Point] = []
        for (number, step) in steps.enumerated() {
            if case .write(_, _, let bytes, _, _) = step.effect, number > 0 {
                for cut in CrashStateGenerator.cutPoints(bytes.count).prefix(3) { points.append(Point(steps: number, cut: cut)) }
            }
            if number + 1 < steps.count && !step.effect.isBarrier { points.append(Point(steps: number + 1, cut: nil)) }
        }
        return points
    }

    /// The points explored, in order: all of them, or a sample of `limit` (at least
    /// `smallestSample`) chosen with the seed `seed`, more when the points that are always kept
    /// (both ends, the first after each kind of step) are more than that.
    static func chosen(_ steps: [FileOperation], seed: UInt64, limit: Int? = nil) -> (points: [Point], total: Int) {
        let points = all(steps)
        guard let limit = limit.map({ max($0, smallestSample) }), points.count > limit else { return (points, points.count) }
        var keep = Set<Int>()
        for position in 0..<edge { keep.insert(position) }
        for position in (points.count - edge)..<points.count { keep.insert(position) }
        var kinds = Set<String>()
        for (position, point) in points.enumerated() {
            let step = steps[point.cut == nil ? point.steps - 1 : point.steps]
            let depth = step.path.utf8.reduce(0) { $1 == 0x2F ? $0 + 1 : $0 }
            if kinds.insert("\(step.kind.rawValue) \(depth) \(point.cut == nil)").inserted { keep.insert(position) }
        }
        var generator = SeededGenerator(seed: seed)
        while keep.count < limit { keep.insert(Int(generator.next() % UInt64(points.count))) }
        return (keep.sorted().map { points[$0] }, points.count)
    }
}
