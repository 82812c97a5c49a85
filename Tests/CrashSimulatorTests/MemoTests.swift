import Testing

@testable import CrashSimulator

/// The one memo layer of the checker's shortcuts: keys derived one way, a memo off remembers
/// nothing, and one past its capacity starts afresh.
@Suite struct MemoTests {
    @Test func keysOfTwoMemosNeverMeetAndEachPartCounts() {
        #expect(MemoKey("a").with(UInt64(1)) != MemoKey("b").with(UInt64(1)))
        #expect(MemoKey("a").with(UInt64(1)).with(UInt64(2)) != MemoKey("a").with(UInt64(2)).with(UInt64(1)), "order counts")
        #expect(MemoKey("a").with(UInt64?.none) != MemoKey("a").with(UInt64?.some(0)), "an absent part is not a zero")
        #expect(MemoKey("a").with("x").with("y") == MemoKey("a").with("x").with("y"))
        #expect(MemoKey("a").with(true) != MemoKey("a").with(false))
    }

    @Test func anAnswerIsComputedOnceWhenOnAndEveryTimeWhenOff() {
        for isOn in [true, false] {
            let memo = Memo<Int>("count", isOn: isOn)
            var computed = 0
            for _ in 0..<3 {
                #expect(
                    memo.value(memo.key.with(7)) {
                        computed += 1
                        return 42
                    } == 42)
            }
            #expect(computed == (isOn ? 1 : 3))
            #expect((memo.known(memo.key.with(7)) != nil) == isOn)
        }
    }

    @Test func anAnswerItDoesNotKeepIsComputedAgain() {
        let memo = Memo<Int>("kept")
        var computed = 0
        for _ in 0..<2 {
            _ = memo.value(memo.key, keeps: { $0 > 100 }) {
                computed += 1
                return 1
            }
        }
        #expect(computed == 2)
    }

    @Test func pastItsCapacityItStartsAfresh() {
        let memo = Memo<Int>("small", capacity: 2)
        for part in 0..<3 { memo.remember(part, under: memo.key.with(part)) }
        #expect(memo.known(memo.key.with(0)) == nil)
        #expect(memo.known(memo.key.with(2)) == 2)
    }
}
