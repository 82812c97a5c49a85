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
    private final class Node {
        var call: TracedCall?
        var children: [(answer: UInt64, node: Node)] = []
        var outcome: Result<RecoveryOutcome, any Error>?
    }

    private var root = Node()
    private var nodes = 0

    deinit { RecoveryMemo.dismantle(root) }

    /// Releases a trie without recursion: a trace of a recovery of a thousand tabs is a chain of
    /// thousands of nodes, whose recursive release would overflow a worker thread's stack.
    private static func dismantle(_ root: Node) {
        var stack = [root]
        while let node = stack.popLast() {
            stack.append(contentsOf: node.children.map(\.node))
            node.children.removeAll()
        }
    }

    /// Starts afresh (the old trie released without recursion).
    private func reset() {
        RecoveryMemo.dismantle(root)
        root = Node()
        nodes = 0
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
        var node = root
        while let call = node.call {
            let answer = system.perform(call)
            guard let next = node.children.first(where: { $0.answer == answer }) else {
                misses += 1
                return nil
            }
            node = next.node
        }
        guard let outcome = node.outcome else {
            misses += 1
            return nil
        }
        hits += 1
        return outcome
    }

    /// Adds a traced run of `weight` (see `longestTrace`) and its outcome.
    func insert(_ trace: [(call: TracedCall, answer: UInt64)], weight: Int, outcome: Result<RecoveryOutcome, any Error>) {
        lastRunWasLong = weight > RecoveryMemo.longestTrace
        guard !lastRunWasLong, !isDisabled else { return }
        if nodes > capacity { reset() }
        var node = root
        for step in trace {
            if let call = node.call, call != step.call {
                // The store did not do the same on the same answers: never replay.
                reset()
                isDisabled = true
                return
            }
            node.call = step.call
            if let next = node.children.first(where: { $0.answer == step.answer }) {
                node = next.node
            } else {
                let next = Node()
                nodes += 1
                node.children.append((step.answer, next))
                node = next
            }
        }
        node.outcome = outcome
    }
}
