/// Builds a crash state on the durable base of its crash point: applies the pending operations
/// the state keeps, in issue order, the torn one in its torn form.
struct Materialiser {
    let recording: Recording
    let seed: UInt64

    init(recording: Recording, seed: UInt64) {
        self.recording = recording
        self.seed = seed
    }

    /// Applies `state` (not its recovery crash) to `tree`, which holds the durable base.
    func materialise(_ state: CrashState, pending: [Int], on tree: ModelTree) {
        let operations = recording.operations
        state.selection.forEachKept(of: pending) { index in
            if let tear = state.tear, tear.operation == index {
                TornWrite.apply(tear, effect: operations[index].effect, index: index, seed: seed, to: tree)
            } else {
                tree.apply(operations[index].effect, index: Int32(index))
            }
        }
        if let tear = state.tear, tear.operation == state.crashPoint, state.crashPoint < operations.count {
            TornWrite.apply(tear, effect: operations[state.crashPoint].effect, index: state.crashPoint, seed: seed, to: tree)
        }
    }
}
