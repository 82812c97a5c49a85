/// Remembers what recovery did on the states already judged, as a tree of traces, so that a state
/// on which recovery would do exactly the same is not handed to the store again.
///
/// Recovery is a deterministic function of what the file system answers it (its clock and group
/// ids are fixed, its temporary names made deterministic by `ModelFileSystem`). A trace is the
/// sequence of its calls with their answers; traces share prefixes in a trie. To replay on a new
/// state, each call of the trie is made again on that state and its answer looked up among the
/// node's children: when every answer was seen before, the calls made are exactly those the store
/// would make, and the remembered outcome is recovery's. At the first unseen answer the replay
/// stops; the caller rolls the tree back and runs the store, tracing, and the trace is added.
final class RecoveryMemo {
    /// A node of the trie, in one flat array: the call made there (nil at a trace's end), the
    /// answer that led to it from its parent, its first child and next sibling (indices, -1 for
    /// none), and its outcome's index in `outcomes` (-1: none). Flat, so that neither a lookup
    /// nor a release follows references: a trace of a thousand calls is a thousand elements.
    private struct Node {
        var call: TracedCall?
        var answer: UInt64
        var firstChild: Int32 = -1
        var nextSibling: Int32 = -1
        var outcome: Int32 = -1
    }

    /// The nodes; the root is the first.
    private var trie: [Node] = [Node(call: nil, answer: 0)]
    /// The outcomes the nodes point at.
    private var outcomes: [Result<RecoveryOutcome, any Error>] = []
    /// Nodes kept, the root left out.
    private var nodes: Int { trie.count - 1 }

    /// Starts afresh.
    private func reset() {
        trie.removeAll(keepingCapacity: true)
        trie.append(Node(call: nil, answer: 0))
        outcomes.removeAll(keepingCapacity: true)
    }

    /// The child of `node` reached by `answer`, or -1.
    private func child(of node: Int, answer: UInt64) -> Int {
        var next = Int(trie[node].firstChild)
        while next >= 0 && trie[next].answer != answer { next = Int(trie[next].nextSibling) }
        return next
    }
    /// Nodes kept at most; the memo starts afresh beyond.
    var capacity = 400_000
    /// Traces heavier than this are not kept (a call weighs one, a tree copied at once one more
    /// for each file it links: see `ModelFileSystem.traceWeight`). A long recovery (setting aside a
    /// session of a thousand tabs) answers differently on almost every state, so its trace costs
    /// more to keep and to replay than running the store again (measured on `1000-tabs`, the memo
    /// made the run 12% slower and five times larger), and its second stage is best resumed
    /// unapplied (see `RecoveryTails`).
    static let longestTrace = 1_024
    /// Whether the last run traced was heavier than `longestTrace`: the next state is then not
    /// replayed (its recovery is most likely as long), until a short run comes again.
    private(set) var lastRunWasLong = false
    /// Set when the store did not do the same on the same answers: nothing is replayed or kept again.
    private(set) var isDisabled = false
    private(set) var hits = 0
    private(set) var misses = 0

    /// Replays recovery on the file system's tree; nil when some answer was never seen (the tree
    /// is then partly changed and must be rolled back).
    func replay(on system: ModelFileSystem) -> Result<RecoveryOutcome, any Error>? {
        guard !lastRunWasLong, !isDisabled else {
            misses += 1
            return nil
        }
        var node = 0
        while let call = trie[node].call {
            let next = child(of: node, answer: system.perform(call))
            guard next >= 0 else {
                misses += 1
                return nil
            }
            node = next
        }
        guard trie[node].outcome >= 0 else {
            misses += 1
            return nil
        }
        let outcome = outcomes[Int(trie[node].outcome)]
        hits += 1
        return outcome
    }

    /// Adds a traced run of `weight` (see `longestTrace`) and its outcome.
    func insert(_ trace: [(call: TracedCall, answer: UInt64)], weight: Int, outcome: Result<RecoveryOutcome, any Error>) {
        lastRunWasLong = weight > RecoveryMemo.longestTrace
        guard !lastRunWasLong, !isDisabled else { return }
        if nodes > capacity { reset() }
        var node = 0
        for step in trace {
            if let call = trie[node].call, call != step.call {
                // The store did not do the same on the same answers: never replay.
                reset()
                isDisabled = true
                return
            }
            if trie[node].call == nil { trie[node].call = step.call }
            var next = child(of: node, answer: step.answer)
            if next < 0 {
                next = trie.count
                trie.append(Node(call: nil, answer: step.answer, nextSibling: trie[node].firstChild))
                trie[node].firstChild = Int32(next)
            }
            node = next
        }
        if trie[node].outcome < 0 {
            trie[node].outcome = Int32(outcomes.count)
            outcomes.append(outcome)
        } else {
            outcomes[Int(trie[node].outcome)] = outcome
        }
    }
}
