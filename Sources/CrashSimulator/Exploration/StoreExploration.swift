import Foundation

/// A judge of a crash state of another browser's store (`crash-test --store`): its findings and
/// how the state restores.
package protocol StoreJudging: AnyObject {
    /// The findings and outcome of `tree` crashed after `crashPoint` operations.
    func judge(_ tree: ModelTree, crashPoint: Int) -> (findings: [Finding], outcome: StoreOutcome)
    /// Distinct states judged.
    var judged: Int { get }
}

/// What every store of `crash-test --store` does alike: its recording, the exploration of every
/// crash state with its judge, and the replay of one reproducer.
package enum StoreExploration {
    /// A model file system holding only `directories` (made in order, each under the one before
    /// or beside it), and the tree's state then: where a store's run starts, its operations counted
    /// from there.
    package static func emptyProfile(
        _ directories: [String]
    ) throws(SimulatorError) -> (tree: ModelTree, fileSystem: ModelFileSystem, initial: ModelTree.Snapshot) {
        let tree = ModelTree()
        let fileSystem = ModelFileSystem(tree: tree)
        do {
            for directory in directories { try fileSystem.mkdir(directory, mode: 0o755) }
        } catch {
            throw .storeFailed(event: "setup", reason: error.description)
        }
        let initial = tree.snapshot()
        fileSystem.clearOperations()
        return (tree, fileSystem, initial)
    }

    /// The recording of a store's uninterrupted run: `fileSystem`'s operations since `initial`,
    /// each returned save an acknowledgement, every operation made while the browser ran.
    package static func recording(
        _ workload: Workload, profile: String, initial: ModelTree.Snapshot, tree: ModelTree, fileSystem: ModelFileSystem,
        saves: [(afterOperations: Int, label: String)], events: [(operation: Int, text: String)]
    ) -> Recording {
        let operations = fileSystem.operations
        let acknowledgements = saves.enumerated().map {
            Acknowledgement(afterOperations: $0.element.afterOperations, version: $0.offset, label: $0.element.label, privacyGroup: nil)
        }
        return Recording(
            workload: workload.name, profile: profile, initial: initial, names: tree.names, operations: operations,
            acknowledgements: acknowledgements, versions: VersionIndex(), privacy: PrivacyIndex(), inodeCount: tree.inodeCapacity,
            running: Array(repeating: true, count: operations.count), events: events)
    }

    /// Judges every crash state of `recording` under `model` with `judge`, counting how each restores.
    package static func judgeEveryState(
        _ recording: Recording, judge: some StoreJudging, model: PersistenceModel, seed: UInt64, maxStates: Int, keptFailures: Int,
        progress: ((Int) -> Void)?
    ) -> (result: ExplorationResult, outcomes: StoreOutcomes) {
        let started = Date()
        var outcomes = StoreOutcomes()
        var result = Explorer.judgeEveryState(
            recording, model: model, seed: seed, maxStates: maxStates, keptFailures: keptFailures, progress: progress
        ) { tree, crashPoint in
            let (findings, outcome) = judge.judge(tree, crashPoint: crashPoint)
            outcomes.count(outcome)
            return findings
        }
        result.unique = judge.judged
        result.elapsedSeconds = Date().timeIntervalSince(started)
        return (result, outcomes)
    }

    /// Judges the one state of `reproducer` in `recording`; `launch` says why a state of the store
    /// has no crash during recovery.
    package static func replay(
        _ reproducer: Reproducer, recording: Recording, judge: some StoreJudging, launch: String
    ) throws(SimulatorError) -> Replayer.Outcome {
        let state = reproducer.state
        guard state.crashPoint <= recording.operations.count, state.recoveryCrash == nil else {
            throw .invalidReproducer(
                reproducer.text,
                reason: state.recoveryCrash != nil
                    ? launch : "crash=\(state.crashPoint) is past the workload's \(recording.operations.count) operations")
        }
        let (tree, pending) = try Replayer().materialise(reproducer, recording: recording)
        let findings = judge.judge(tree, crashPoint: state.crashPoint).findings
        let explanation = FailureExplanation.lines(recording: recording, model: reproducer.model, state: state, pending: pending)
        return Replayer.Outcome(
            reproducer: reproducer, findings: findings, explanation: explanation, operations: recording.operations.count,
            acknowledgements: recording.acknowledgements.count)
    }
}
