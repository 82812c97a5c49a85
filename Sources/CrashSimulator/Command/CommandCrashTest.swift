import Foundation
@_spi(CrashTesting) import SessionStore

/// `crash-test --command`: a profile command run once on the model file system, then every crash
/// state of its writes under the persistence model judged by a `CommandJudge`.
public struct CommandCrashTest: Sendable {
    /// What to run.
    public struct Configuration: Sendable {
        public var command: ProfileCommand
        /// The profile directory (the inspect JSON document for import).
        public var input: String
        public var model: PersistenceModel = .pessimistic
        @_spi(CrashTesting) public var writeProtocol: WriteProtocol = .safe
        public var seed: UInt64 = 1
        public var maxStates = 2_000_000
        public var keptFailures = ExplorationOptions.defaultKeptFailures

        public init(command: ProfileCommand, input: String) {
            self.command = command
            self.input = input
        }
    }

    /// What a run found.
    public struct Report: Sendable {
        public var configuration: Configuration
        /// The command's file operations in its uninterrupted run.
        public var operations: Int
        public var result: ExplorationResult

        /// The reproducer of a failure, which `crash-test --replay` takes.
        public func reproducer(_ failure: FailureReport) -> Reproducer {
            var reproducer = Reproducer(
                workload: "\(configuration.command.rawValue) \(configuration.input)", model: configuration.model,
                writeProtocol: configuration.writeProtocol, seed: configuration.seed, state: failure.state)
            reproducer.command = (configuration.command, configuration.input)
            return reproducer
        }
    }

    public var configuration: Configuration

    public init(configuration: Configuration) { self.configuration = configuration }

    /// Records the command and judges every crash state; `progress` hears the states explored so far.
    public func run(progress: ((Int) -> Void)? = nil) throws(SimulatorError) -> Report {
        let started = Date()
        let run = try CommandRun.record(configuration.command, input: configuration.input, writeProtocol: configuration.writeProtocol)
        let recording = run.recording
        let judge = CommandJudge(run: run)
        var result = Explorer.judgeEveryState(
            recording, model: configuration.model, seed: configuration.seed, maxStates: configuration.maxStates,
            keptFailures: configuration.keptFailures, progress: progress
        ) { tree, _ in judge.judge(tree) }
        result.unique = judge.judged
        result.elapsedSeconds = Date().timeIntervalSince(started)
        return Report(configuration: configuration, operations: recording.operations.count, result: result)
    }

    /// Judges the one state of a `--command` reproducer.
    static func replay(_ reproducer: Reproducer, run: CommandRun) throws(SimulatorError) -> Replayer.Outcome {
        let recording = run.recording
        let state = reproducer.state
        guard state.crashPoint <= recording.operations.count, state.recoveryCrash == nil else {
            throw .invalidReproducer(
                reproducer.text,
                reason: state.recoveryCrash != nil
                    ? "a command's state has no recovery-crash="
                    : "crash=\(state.crashPoint) is past the command's \(recording.operations.count) operations")
        }
        let (tree, pending) = try Replayer().materialise(reproducer, recording: recording)
        let findings = CommandJudge(run: run).judge(tree)
        let explanation = FailureExplanation.lines(recording: recording, model: reproducer.model, state: state, pending: pending)
        return Replayer.Outcome(
            reproducer: reproducer, findings: findings, explanation: explanation,
            operations: recording.operations.count, acknowledgements: 0)
    }
}
