import Foundation

extension Explorer {
    /// Explores every crash state of `recording` under `model` on one thread, judging each by
    /// `judge` (the tree of the state, and the operations issued before the crash), and counts
    /// what failed: the loop of runs whose states have no recovery of the store to crash (a
    /// command's run, another browser's store). Stops at `maxStates` (the result is then truncated).
    package static func judgeEveryState(
        _ recording: Recording, model: PersistenceModel, seed: UInt64, maxStates: Int, keptFailures: Int,
        splitsRenames: Bool = true, progress: ((Int) -> Void)?, judge: (ModelTree, Int) -> [Finding]
    ) -> ExplorationResult {
        let started = Date()
        var generator = CrashStateGenerator(model: model, seed: seed)
        generator.splitsRenames = splitsRenames
        let tree = ModelTree(snapshot: recording.initial, names: recording.names)
        let materialiser = Materialiser(recording: recording, seed: seed)
        var result = ExplorationResult()
        walk(
            recording, generator, through: recording.operations.count,
            apply: { index in tree.apply(recording.operations[index].effect, index: Int32(index)) }
        ) { crashPoint, point in
            if point.leftOut > 0 {
                result.sampledCrashPoints += 1
                result.statesLeftOut += point.leftOut
            }
            tree.isJournaling = true
            defer { tree.isJournaling = false }
            for state in point.states {
                guard result.explored < maxStates else {
                    result.truncated = true
                    return false
                }
                result.explored += 1
                let mark = tree.mark()
                materialiser.materialise(state, pending: point.pending, on: tree)
                let findings = judge(tree, crashPoint)
                tree.rollback(to: mark)
                if let first = findings.first {
                    result.failed += 1
                    for oracle in Set(findings.map(\.oracle)) { result.failuresByOracle[oracle, default: 0] += 1 }
                    if result.failures.count < keptFailures {
                        result.failures.append(
                            FailureReport(
                                oracle: first.oracle, crashAfter: state.crashPoint, state: state, message: first.message, findings: findings
                            ))
                    }
                }
                if result.explored % 64 == 0 { progress?(result.explored) }
            }
            return true
        }
        result.elapsedSeconds = Date().timeIntervalSince(started)
        return result
    }
}
