/// F: a torn operation together with losses of the other pending operations of its crash point.
extension CrashStateGenerator {
    /// The selections that keep the torn operation and lose some of the others, and how many such
    /// selections are left out.
    struct CombinedLosses {
        var selections: [Selection]
        var leftOut: Double
    }

    /// Which of the other pending operations are lost beside the torn operation `torn`: every
    /// nonempty subset of them when there are at most `combinedExhaustiveLimit`; else all of
    /// them, each of the `combinedSingles` issued last before `torn` alone, and
    /// `combinedSamples` seeded random subsets. The selection that loses none of them (the tear
    /// alone) is not among them.
    func combinedLosses(at crashPoint: Int, torn: Int, pending: [Int]) -> CombinedLosses {
        let others = pending.filter { $0 != torn }
        guard !others.isEmpty else { return CombinedLosses(selections: [], leftOut: 0) }
        var selections: [Selection] = []
        if others.count <= combinedExhaustiveLimit {
            for lost in 1..<(UInt64(1) << UInt64(others.count)) {
                selections.append(
                    Self.losing(others.enumerated().filter { lost & (UInt64(1) << UInt64($0.offset)) != 0 }.map(\.element), of: pending))
            }
            return CombinedLosses(selections: selections, leftOut: 0)
        }
        var seen = Set<Selection>()
        func add(_ lost: [Int]) {
            guard !lost.isEmpty else { return }
            let selection = Self.losing(lost, of: pending)
            if seen.insert(selection).inserted { selections.append(selection) }
        }
        add(others)
        for index in others.filter({ $0 < torn }).suffix(combinedSingles) { add([index]) }
        var generator = SeededGenerator(seed: ContentHash.combine(ContentHash.combine(seed, UInt64(crashPoint)), UInt64(torn) | 1 << 40))
        for _ in 0..<combinedSamples { add(Self.randomSubset(of: others, using: &generator, keeping: true)) }
        return CombinedLosses(selections: selections, leftOut: Self.subsetCount(others.count) - 1 - Double(selections.count))
    }

    /// The selection of `pending` that loses exactly `lost` (ascending), in its shorter form
    /// (`only` when as short).
    static func losing(_ lost: [Int], of pending: [Int]) -> Selection {
        if lost.count == pending.count { return .none }
        if lost.count < pending.count - lost.count { return .allBut(lost) }
        let lostSet = Set(lost)
        return .only(pending.filter { !lostSet.contains($0) })
    }

    /// A seeded random subset of `operations` (ascending): each one in it when its bit of the
    /// generator's next words is set (`keeping`) or clear.
    static func randomSubset(of operations: [Int], using generator: inout SeededGenerator, keeping: Bool) -> [Int] {
        var subset: [Int] = []
        var word: UInt64 = 0
        for (position, index) in operations.enumerated() {
            if position % 64 == 0 { word = generator.next() }
            if (word & (UInt64(1) << UInt64(position % 64)) != 0) == keeping { subset.append(index) }
        }
        return subset
    }
}
