/// Crashes inside recovery under the pessimistic model: recovery's own unsynced operations lost,
/// reordered and torn, as the workload's are.
extension StateJudge {
    /// The states a power loss inside recovery leaves, beyond those of a process crash: at each
    /// checkpoint of recovery's operations (before each barrier, and at its end) the states the
    /// crash-state generator makes of recovery's pending operations, the one that keeps them all
    /// left out (a process crash there leaves it, or recovery finished). With `chosen` (the
    /// recovery's crash points were sampled) only the checkpoints among them and the end.
    func exploreRecoveryPowerLoss(
        _ tree: ModelTree, steps: [FileOperation], operationBase: Int32, inodeBase: Int32, at chosen: Set<Int>?
    ) -> [(state: StateVerdict.RecoveryCrash, verdict: StateVerdict)] {
        var result: [(state: StateVerdict.RecoveryCrash, verdict: StateVerdict)] = []
        let generator = CrashStateGenerator(model: .pessimistic, seed: seed)
        var pending = PendingOperations(model: .pessimistic)
        let mark = tree.mark()
        var lastCheckpoint = 0
        for crashPoint in 0...steps.count {
            let checkpoint = crashPoint == steps.count || steps[crashPoint].effect.isBarrier
            if checkpoint, crashPoint > 0, chosen?.contains(crashPoint) ?? true || crashPoint == steps.count {
                let indices = pending.indices
                let fresh = indices.filter { $0 >= lastCheckpoint }
                let generated = generator.generate(at: crashPoint, operations: steps, pending: indices, fresh: fresh, checkpoint: true)
                for state in generated.states where state.selection != .all || state.tear != nil {
                    let inner = tree.mark()
                    state.selection.forEachKept(of: indices) { index in
                        if let tear = state.tear, tear.operation == index {
                            TornWrite.apply(tear, effect: steps[index].effect, index: Int(operationBase) + index, seed: seed, to: tree)
                        } else {
                            tree.apply(steps[index].effect, index: operationBase + Int32(index))
                        }
                    }
                    recoveryCrashStates += 1
                    recoveryPowerLossStates += 1
                    let keep = state.selection == .all ? nil : state.selection
                    let crash = StateVerdict.RecoveryCrash(steps: crashPoint, cut: nil, keep: keep, tear: state.tear)
                    result.append((crash, verdict(tree, depth: 1, inodeBase: inodeBase)))
                    tree.rollback(to: inner)
                }
            }
            if checkpoint { lastCheckpoint = crashPoint }
            if crashPoint < steps.count {
                for index in pending.issue(crashPoint, steps[crashPoint].effect) {
                    tree.apply(steps[index].effect, index: operationBase + Int32(index))
                }
            }
        }
        tree.rollback(to: mark)
        return result
    }
}
