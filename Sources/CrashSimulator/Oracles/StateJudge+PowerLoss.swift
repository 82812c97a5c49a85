/// Crashes inside recovery under the pessimistic model: recovery's own unsynced operations lost,
/// reordered and torn, as the workload's are.
extension StateJudge {
    /// Recovery checkpoints crashed under power loss at most per recovery: a recovery that sets
    /// aside a session of thousands of tabs has thousands, each with its own states.
    static let powerLossCheckpoints = 16
    /// Of those, the checkpoints always kept at each end.
    static let powerLossEdge = 4
    /// Random subsets of a large pending set drawn at each recovery checkpoint (the workload's
    /// checkpoints draw `CrashStateGenerator.samples`): a recovery that copies a session of a
    /// thousand tabs has a thousand operations pending at once.
    static let powerLossSamples = 8

    /// The states a power loss inside recovery leaves, beyond those of a process crash: at each
    /// checkpoint of recovery's operations (before each barrier, and at its end) the states the
    /// crash-state generator makes of recovery's pending operations, the one that keeps them all
    /// left out (a process crash there leaves it, or recovery finished). With `chosen` (the
    /// recovery's crash points were sampled) only the checkpoints among them and the end; of a
    /// recovery with more than `powerLossCheckpoints` checkpoints, the first and last
    /// `powerLossEdge`, the first after each kind of operation and a seeded sample, the states
    /// of the others counted as left out (`powerLossLeftOut`).
    func exploreRecoveryPowerLoss(
        _ tree: ModelTree, steps: [FileOperation], operationBase: Int32, inodeBase: Int32, at chosen: Set<Int>?
    ) -> [(state: StateVerdict.RecoveryCrash, verdict: StateVerdict)] {
        var result: [(state: StateVerdict.RecoveryCrash, verdict: StateVerdict)] = []
        var generator = CrashStateGenerator(model: .pessimistic, seed: seed)
        generator.samples = Self.powerLossSamples
        generator.combinedSamples = 1
        let explored = Self.powerLossCheckpoints(steps, chosen: chosen, seed: ContentHash.combine(seed, tree.hash))
        var pending = PendingOperations(model: .pessimistic)
        let mark = tree.mark()
        var lastCheckpoint = 0
        for crashPoint in 0...steps.count {
            let checkpoint = crashPoint == steps.count || steps[crashPoint].effect.isBarrier
            if checkpoint, crashPoint > 0, chosen?.contains(crashPoint) ?? true || crashPoint == steps.count {
                let indices = pending.indices
                let fresh = indices.filter { $0 >= lastCheckpoint }
                let generated = generator.generate(at: crashPoint, operations: steps, pending: indices, fresh: fresh, checkpoint: true)
                if !explored.contains(crashPoint) {
                    powerLossLeftOut += generated.leftOut + Double(generated.states.count - 1)
                    powerLossSampledCheckpoints += 1
                } else {
                    powerLossLeftOut += generated.leftOut
                    if generated.leftOut > 0 { powerLossSampledCheckpoints += 1 }
                    for state in generated.states where state.selection != .all || state.tear != nil {
                        result.append(
                            judgePowerLoss(
                                tree, state, at: crashPoint, pending: indices, steps: steps, operationBase: operationBase,
                                inodeBase: inodeBase))
                    }
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

    /// Builds one power-loss state of recovery on its durable base (`tree`), judges it, rolls it back.
    private func judgePowerLoss(
        _ tree: ModelTree, _ state: CrashState, at crashPoint: Int, pending: [Int], steps: [FileOperation], operationBase: Int32,
        inodeBase: Int32
    ) -> (state: StateVerdict.RecoveryCrash, verdict: StateVerdict) {
        let inner = tree.mark()
        defer { tree.rollback(to: inner) }
        state.selection.forEachKept(of: pending) { index in
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
        return (crash, verdict(tree, depth: 1, inodeBase: inodeBase))
    }

    /// The checkpoints of `steps` (crash points before a barrier, and the end; among `chosen`
    /// when given) whose power-loss states are explored: all of them up to `powerLossCheckpoints`,
    /// else the first and last `powerLossEdge`, the first after each kind of operation, and a
    /// sample seeded by `seed` up to that many.
    static func powerLossCheckpoints(_ steps: [FileOperation], chosen: Set<Int>?, seed: UInt64) -> Set<Int> {
        var checkpoints: [Int] = []
        for crashPoint in 1...max(1, steps.count) where crashPoint == steps.count || steps[crashPoint].effect.isBarrier {
            if chosen?.contains(crashPoint) ?? true || crashPoint == steps.count { checkpoints.append(crashPoint) }
        }
        guard checkpoints.count > powerLossCheckpoints else { return Set(checkpoints) }
        var keep = Set(checkpoints.prefix(powerLossEdge))
        keep.formUnion(checkpoints.suffix(powerLossEdge))
        var kinds = Set<String>()
        for crashPoint in checkpoints where kinds.insert(steps[crashPoint - 1].kind.rawValue).inserted { keep.insert(crashPoint) }
        var generator = SeededGenerator(seed: seed)
        while keep.count < max(powerLossCheckpoints, kinds.count + 2 * powerLossEdge) && keep.count < checkpoints.count {
            keep.insert(checkpoints[Int(generator.next() % UInt64(checkpoints.count))])
        }
        return keep
    }
}
