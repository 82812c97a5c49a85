import TestSupport
import Testing

@testable import ChromiumDesktop
@testable import SessionFormats

/// Replay's map from tab ids to slots gives what a dictionary gives, whatever the ids: small ones
/// (its table), negative and huge ones (its dictionary), set again, removed and set anew.
@Suite struct SessionIDSlotsTests {
    init() { Browsers.install() }

    @Test(arguments: [1, 2, 3, 4])
    func itAnswersAsADictionaryDoes(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var slots = SessionIDSlots()
        var plain: [Int32: Int] = [:]
        let limit = Int32(SessionIDSlots.tableLimit)
        let pools: [ClosedRange<Int32>] = [
            0...50, 0...5000, -3...3, limit - 2...limit + 2, Int32.max - 2...Int32.max, Int32.min...Int32.min + 2
        ]
        for step in 0..<20_000 {
            let pool = pools[random.below(pools.count)]
            let id = Int32(
                truncatingIfNeeded: Int64(pool.lowerBound) + Int64(random.below(Int(Int64(pool.upperBound) - Int64(pool.lowerBound)) + 1)))
            switch random.next() % 4 {
            case 0, 1:
                slots.set(id, step)
                plain[id] = step
            case 2: #expect(slots.remove(id) == plain.removeValue(forKey: id))
            default: #expect(slots[id] == plain[id])
            }
        }
        for id in plain.keys { #expect(slots[id] == plain[id]) }
    }

}
