import TestSupport
import Testing

@testable import CrashSimulator

/// The one memo layer of the checker's shortcuts: keys derived one way, a memo off remembers
/// nothing, and one past its capacity starts afresh.
@Suite struct MemoTests {
    init() { Browsers.install() }

    @Test func keysOfTwoMemosNeverMeetAndEachPartCounts() {
        #expect(MemoKey("a").with(UInt64(1)) != MemoKey("b").with(UInt64(1)))
        #expect(MemoKey("a").with(UInt64(1)).with(UInt64(2)) != MemoKey("a").with(UInt64(2)).with(UInt64(1)), "order counts")
        #expect(MemoKey("a").with(UInt64?.none) != MemoKey("a").with(UInt64?.some(0)), "an absent part is not a zero")
        #expect(MemoKey("a").with("x").with("y") == MemoKey("a").with("x").with("y"))
        #expect(MemoKey("a").with(true) != MemoKey("a").with(false))
        #expect(Memo<Int>(.aftermath).key != Memo<Int>(.secondRun).key)
    }

    /// How many times `compute` runs when the memo is asked `keys` in turn.
    private func computations(_ memo: Memo<Int>, _ keys: [Int], keeps: @escaping (Int) -> Bool = { _ in true }) -> Int {
        var computed = 0
        for part in keys {
            #expect(
                memo.value(memo.key.with(part), keeps: keeps) {
                    computed += 1
                    return part * 10
                } == part * 10)
        }
        return computed
    }

    @Test func anAnswerIsComputedOnceWhenOnAndEveryTimeWhenOff() {
        #expect(computations(Memo(.aftermath), [7, 7, 7]) == 1)
        #expect(computations(Memo(.aftermath, takesShortcuts: false), [7, 7, 7]) == 3)
    }

    @Test func anAnswerItDoesNotKeepIsComputedAgain() {
        #expect(computations(Memo(.aftermath), [1, 1], keeps: { $0 > 100 }) == 2)
    }

    @Test func pastItsCapacityItStartsAfresh() {
        // 0 and 1 fill it; 2 starts it afresh, so 0 is computed again and 2 is kept.
        #expect(computations(Memo(.aftermath, capacity: 2), [0, 1, 2, 2, 0]) == 4)
    }
}
