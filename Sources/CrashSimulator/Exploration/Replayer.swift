/// Builds the crash state of a reproducer again and runs every oracle on it.
public struct Replayer: Sendable {
    /// Recovery; nil: the store's, with the reproducer's protocol.
    public var runner: (any RecoveryRunner)?

    public init(runner: (any RecoveryRunner)? = nil) { self.runner = runner }

    /// What a replay found.
    public struct Outcome: Sendable {
        public var reproducer: Reproducer
        public var findings: [Finding]
        /// The crash state explained, one line each.
        public var explanation: [String]
        /// The workload's file operations and acknowledged saves.
        public var operations = 0
        public var acknowledgements = 0
    }

    /// Records the reproducer's workload and checks its one state.
    public func replay(_ reproducer: Reproducer) throws(SimulatorError) -> Outcome {
        if let store = reproducer.store { return try store.model.replay(reproducer, protocolName: store.protocolName) }
        if let command = reproducer.command {
            let run = try CommandRun.record(command.name, input: command.input, writeProtocol: reproducer.writeProtocol)
            return try CommandCrashTest.replay(reproducer, run: run)
        }
        let workload = try WorkloadSource.load(reproducer.workload)
        let recording = try WorkloadRecorder(writeProtocol: reproducer.writeProtocol).record(
            workload, startingProfile: reproducer.startingProfile)
        return try replay(reproducer, recording: recording)
    }

    /// Checks the reproducer's state of an existing recording.
    public func replay(_ reproducer: Reproducer, recording: Recording) throws(SimulatorError) -> Outcome {
        let state = reproducer.state
        guard state.crashPoint <= recording.operations.count else {
            throw .invalidReproducer(
                reproducer.text, reason: "crash=\(state.crashPoint) is past the workload's \(recording.operations.count) operations")
        }
        let (tree, pending) = try materialise(reproducer, recording: recording)
        let runner = self.runner ?? StoreRecoveryRunner(writeProtocol: reproducer.writeProtocol)
        let judge = StateJudge(recording: recording, runner: runner)
        judge.seed = reproducer.seed
        judge.model = reproducer.model
        let context = CrashContext(recording: recording, crashPoint: state.crashPoint)
        var findings: [Finding]
        if let steps = state.recoveryCrash {
            if reproducer.model == .process, state.recoveryKeep != nil || state.recoveryTear != nil {
                throw .invalidReproducer(reproducer.text, reason: "recovery-keep and recovery-tear are states of the pessimistic model")
            }
            let verdict = judge.verdict(tree)
            let wanted = StateVerdict.RecoveryCrash(
                steps: steps, cut: state.recoveryCut, keep: state.recoveryKeep, tear: state.recoveryTear)
            guard
                let child = verdict.recoveryCrashes.first(where: {
                    $0.state.steps == wanted.steps && $0.state.cut == wanted.cut && $0.state.keep == wanted.keep
                        && $0.state.tear == wanted.tear
                })
            else {
                throw .invalidReproducer(
                    reproducer.text,
                    reason: "recovery of this state has no crash state \(steps)\(state.recoveryCut.map { ":\($0)" } ?? "")"
                        + (state.recoveryKeep.map { " keeping \($0.text)" } ?? "")
                        + (state.recoveryTear.map { " tearing \($0.text)" } ?? "")
                )
            }
            findings = child.verdict.findings(in: context.forRecoveryCrash) + child.state.findings
        } else {
            findings = judge.verdict(tree).findings(in: context)
        }
        var explanation = FailureExplanation.lines(recording: recording, model: reproducer.model, state: state, pending: pending)
        if let steps = state.recoveryCrash {
            explanation += recoverySteps(tree, recording: recording, reproducer: reproducer, crashAfter: steps, state: state)
        }
        return Outcome(
            reproducer: reproducer, findings: findings, explanation: explanation,
            operations: recording.operations.count, acknowledgements: recording.acknowledgements.count)
    }

    /// Builds the reproducer's crash state of `recording` (journaling on), after checking that it
    /// fits the recording; returns it with the operations pending at its crash point.
    func materialise(_ reproducer: Reproducer, recording: Recording) throws(SimulatorError) -> (tree: ModelTree, pending: [Int]) {
        let state = reproducer.state
        let generator = CrashStateGenerator(model: reproducer.model, seed: reproducer.seed)
        let tree = ModelTree(snapshot: recording.initial, names: recording.names)
        var pending: [Int] = []
        Explorer.walk(
            recording, generator, from: state.crashPoint, through: state.crashPoint,
            apply: { index in
                tree.apply(recording.operations[index].effect, index: Int32(index))
            }
        ) { _, point in
            pending = point.pending
            return false
        }
        try validate(reproducer, pending: pending, operations: recording.operations)
        tree.isJournaling = true
        Materialiser(recording: recording, seed: reproducer.seed).materialise(state, pending: pending, on: tree)
        return (tree, pending)
    }

    /// The operations recovery makes on the state `tree` holds (which is left as it was).
    private func recoverySteps(
        _ tree: ModelTree, recording: Recording, reproducer: Reproducer, crashAfter steps: Int, state: CrashState
    ) -> [String] {
        let mark = tree.mark()
        let system = ModelFileSystem(
            tree: tree, firstInode: recording.inodeCount + 10_000, operationBase: Int32(recording.operations.count) + 1_000_000,
            tracksExactContent: false, temporaryTag: "r0-")
        let runner = self.runner ?? StoreRecoveryRunner(writeProtocol: reproducer.writeProtocol)
        _ = try? runner.recover(fileSystem: system, profile: recording.profile)
        tree.rollback(to: mark)
        var lines = ["recovery's operations on that state:"]
        // Recovery's operations still pending at the crash, for the ones a power loss drops.
        var pending = PendingOperations(model: reproducer.model)
        for (number, operation) in system.operations.prefix(steps).enumerated() { _ = pending.issue(number, operation.effect) }
        let uncertain = Set(pending.indices)
        for (number, operation) in system.operations.enumerated() {
            var note = ""
            if uncertain.contains(number), let keep = state.recoveryKeep, !keep.keeps(number) { note = " (lost)" }
            if let tear = state.recoveryTear, tear.operation == number { note = " (torn: \(tear.text))" }
            lines.append("  \(number + 1 == steps ? ">" : " ") r\(number + 1) \(operation.summary)\(note)")
        }
        return lines
    }

    /// Refuses states that the generator could not have produced.
    func validate(_ reproducer: Reproducer, pending: [Int], operations: [FileOperation]) throws(SimulatorError) {
        let state = reproducer.state
        let pendingSet = Set(pending)
        switch state.selection {
        case .allBut(let list), .only(let list):
            if let bad = list.first(where: { !pendingSet.contains($0) }) {
                throw .invalidReproducer(
                    reproducer.text,
                    reason: "operation \(bad + 1) is not pending at crash=\(state.crashPoint) under \(reproducer.model.rawValue)")
            }
        case .all, .none: break
        }
        if let tear = state.tear {
            let inProgress = tear.operation == state.crashPoint && state.crashPoint < operations.count
            guard inProgress || (pendingSet.contains(tear.operation) && state.selection.keeps(tear.operation)) else {
                throw .invalidReproducer(
                    reproducer.text, reason: "operation \(tear.operation + 1) cannot be torn at crash=\(state.crashPoint)")
            }
            try checkFits(tear, operations[tear.operation].effect, reproducer)
        }
    }

    /// Refuses a tear of a kind the operation cannot have (writes are cut or torn, renames lose
    /// steps), and a torn sector outside the write: the generator makes neither.
    private func checkFits(_ tear: Tear, _ effect: Effect, _ reproducer: Reproducer) throws(SimulatorError) {
        let number = tear.operation + 1
        switch (tear, effect) {
        case (.renameSteps, .rename), (.cut, .write), (.pieces, .write):
            return
        case (.sector(_, let sector, let length), .write(_, let offset, let bytes, _, _)):
            let sectors = bytes.isEmpty ? 0 : (offset + bytes.count - 1) / Tear.sectorSize - offset / Tear.sectorSize + 1
            guard sector < sectors, length <= Tear.sectorSize else {
                throw .invalidReproducer(
                    reproducer.text,
                    reason:
                        "operation \(number) writes \(sectors) sector(s) of \(Tear.sectorSize) bytes; tear=\(number):sector:\(sector):\(length) lies outside it"
                )
            }
        case (.renameSteps, _):
            throw .invalidReproducer(reproducer.text, reason: "operation \(number) is not a rename, so it cannot be torn into rename steps")
        default:
            throw .invalidReproducer(reproducer.text, reason: "operation \(number) is not a write, so it cannot be torn as one")
        }
    }
}
