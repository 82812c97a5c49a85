import TestSupport
import Testing

@testable import SessionForensics

/// The longest increasing subsequence against a quadratic reference on many sequences.
@Suite struct LongestIncreasingSubsequenceTests {
    init() { Browsers.install() }

    /// Length of the longest strictly increasing subsequence, by dynamic programming.
    func referenceLength(_ values: [Int]) -> Int {
        var best = [Int](repeating: 1, count: values.count)
        for i in values.indices {
            for j in 0..<i where values[j] < values[i] { best[i] = max(best[i], best[j] + 1) }
        }
        return best.max() ?? 0
    }

    @Test func examples() {
        #expect(LongestIncreasingSubsequence.positions(in: []) == [])
        #expect(LongestIncreasingSubsequence.positions(in: [5]) == [0])
        #expect(LongestIncreasingSubsequence.positions(in: [0, 1, 2, 3]) == [0, 1, 2, 3])
        #expect(LongestIncreasingSubsequence.positions(in: [4, 0, 1, 2, 3]) == [1, 2, 3, 4])
        #expect(LongestIncreasingSubsequence.positions(in: [1, 2, 3, 0]) == [0, 1, 2])
    }

    @Test func matchesReferenceOnPermutations() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        for length in 0..<40 {
            var values = Array(0..<length)
            for index in values.indices.reversed() { values.swapAt(index, next(index + 1)) }
            let positions = LongestIncreasingSubsequence.positions(in: values)
            #expect(positions.count == referenceLength(values), "\(values)")
            #expect(zip(positions, positions.dropFirst()).allSatisfy { $0 < $1 && values[$0] < values[$1] }, "\(values)")
        }
    }
}
