#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The key of a remembered answer (`Memo`), derived one way only: the memo's own name first, then
/// every part the answer depends on, mixed in a fixed order. Keys of two memos never meet, and a
/// part left out is the one place a wrong answer can come from, so each memo says next to its key
/// what its value depends on.
package struct MemoKey: Hashable, Sendable {
    /// The mixed value.
    private(set) var value: UInt64

    /// A key of the memo named `memo`, with nothing mixed in yet.
    package init(_ memo: String) { value = ContentHash.of(memo) }

    /// The key with `part` mixed in.
    package func with(_ part: UInt64) -> MemoKey {
        var key = self
        key.value = ContentHash.combine(value, part)
        return key
    }

    /// The key with `part` mixed in (its bits, sign included).
    package func with(_ part: Int32) -> MemoKey { with(UInt64(UInt32(bitPattern: part))) }

    /// The key with `part` mixed in.
    package func with(_ part: Int) -> MemoKey { with(UInt64(bitPattern: Int64(part))) }

    /// The key with `part` mixed in, an absent part apart from every present one.
    package func with(_ part: UInt64?) -> MemoKey { part.map { with(1).with($0) } ?? with(0) }

    /// The key with the text `part` mixed in.
    package func with(_ part: String) -> MemoKey { with(ContentHash.of(part)) }

    /// The key with `part` mixed in.
    package func with(_ part: Bool) -> MemoKey { with(UInt64(part ? 1 : 0)) }
}

/// One of the checker's shortcuts: answers remembered by a `MemoKey`, so that a question asked
/// again (the same tree, the same content) costs a lookup. Off, it remembers nothing and every
/// answer is computed afresh: what a run without shortcuts (`ExplorationOptions.takesShortcuts`,
/// `crash-test --no-shortcuts`) compares the shortcuts against, to show that no key leaves out a
/// part its answer depends on.
///
/// Beyond `capacity` answers it starts afresh. Confined to one thread, as the judge that owns it.
package final class Memo<Value> {
    /// Answers kept at most.
    package let capacity: Int
    /// Whether answers are remembered.
    package let isOn: Bool
    private var values: [MemoKey: Value] = [:]
    /// A key of this memo with nothing mixed in yet: the shortcut's name, made once.
    package let key: MemoKey

    /// The memo of the shortcut `shortcut`, on when shortcuts are taken (`takesShortcuts`) and
    /// that one is not switched off (`Shortcut.isTaken`).
    package init(_ shortcut: Shortcut, capacity: Int = 300_000, takesShortcuts: Bool = true) {
        key = MemoKey(shortcut.rawValue)
        self.capacity = capacity
        isOn = takesShortcuts && shortcut.isTaken
    }

    /// The answer remembered under `key`, or the one `compute` gives (remembered when `keeps`
    /// says so).
    package func value(_ key: MemoKey, keeps: (Value) -> Bool = { _ in true }, _ compute: () -> Value) -> Value {
        guard isOn else { return compute() }
        if let known = values[key] { return known }
        let value = compute()
        guard keeps(value) else { return value }
        if values.count >= capacity { values.removeAll(keepingCapacity: true) }
        values[key] = value
        return value
    }
}

/// The checker's shortcuts by name: the memos, and the ones that are not memos of answers. The
/// environment variable `SESSIONCTL_SHORTCUTS_OFF` (names separated by commas) turns the ones it
/// names off, alone, in an otherwise fast run, for measuring what each saves
/// (`Benchmarks/shortcut-worth` counts the instructions with each off).
package enum Shortcut: String, CaseIterable, Sendable {
    /// What the oracles found on a tree recovery left (`JudgeCaches.aftermath`).
    case aftermath
    /// Recovery run again on a tree recovery left (`JudgeCaches.secondRun`).
    case secondRun = "second run"
    /// What the set-aside oracle notes before recovery (`JudgeCaches.setAsideBefore`).
    case setAsideBefore = "set-aside before"
    /// What the set-aside oracle captures after recovery (`JudgeCaches.setAside`).
    case setAsideCapture = "set-aside capture"
    /// Recoveries resumed from a remembered midpoint (`RecoveryTails`).
    case recoveryTails = "recovery tails"
    /// Trees removed or copied at once by the model file system.
    case oneStepTrees = "one-step trees"
    /// Directories compared, and the sweep's hint answered, by content hash.
    case contentHashes = "content hashes"
    /// A browser store's verdicts on its crash states (`StoreVerdicts`).
    case storeVerdicts = "store verdicts"
    /// Whether a file's bytes load in the browser, asked of a store's judge again (Firefox for
    /// iOS's window files).
    case storeDecodes = "store decodes"

    /// The shortcuts `SESSIONCTL_SHORTCUTS_OFF` turns off (a name it does not know turns nothing off).
    package static let switchedOff: Set<Shortcut> = {
        guard let value = getenv("SESSIONCTL_SHORTCUTS_OFF") else { return [] }
        return Set(String(cString: value).split(separator: ",").compactMap { Shortcut(rawValue: String($0)) })
    }()

    /// Whether this shortcut is taken when shortcuts are.
    package var isTaken: Bool { !Shortcut.switchedOff.contains(self) }
}
