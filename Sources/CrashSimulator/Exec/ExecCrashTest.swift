import FileSystemKit
import Foundation
@_spi(CrashTesting) import SessionStore

/// `crash-test --exec`: any program's file writes, recorded once under strace in a private copy
/// of its directory, rebuilt from the trace (and checked against the real end state), then every
/// crash state of the persistence model judged by the user's checker.
public struct ExecCrashTest: Sendable {
    /// What to run.
    public struct Configuration: Sendable {
        /// The program and its arguments.
        public var program: [String]
        /// The directory it writes (a private copy is its working directory).
        public var directory: String
        /// The checker, run by the shell on each crash state (its directory as `$1`).
        public var check: String
        public var model: PersistenceModel = .pessimistic
        public var seed: UInt64 = 1
        public var maxStates = 2_000_000
        public var keptFailures = ExplorationOptions.defaultKeptFailures
        /// Whether a pending rename may reach the disk in parts (`pessimistic` only); by default a
        /// rename is lost or done whole, as the file systems that journal it do.
        public var splitsRenames = false
        /// Seconds the checker is given on one state.
        public var checkTimeout = 60.0
        /// Where each listed failing state is written out (`state-1`, ...), with the output the
        /// program had printed before the crash beside it; nil: nowhere.
        public var keep: String?

        public init(program: [String], directory: String, check: String) {
            self.program = program
            self.directory = directory
            self.check = check
        }
    }

    /// What a run found.
    public struct Report: Sendable {
        public var configuration: Configuration
        /// The program's operations on the directory's files.
        public var operations: Int
        /// Writes to its standard output (each a point after which a crash must keep what it said).
        public var outputs: Int
        public var result: ExplorationResult
        /// Calls on files outside the directory, by call (not modelled).
        public var outside: [String: Int]
        public var notes: [String]
        /// The failing states kept, grouped by what led to them, most frequent first.
        public var groups: [(cause: String, states: Int)]
        /// The earliest step after which a state fails, in words.
        public var firstUnsafeStep: String?
        /// Each kept failure explained, in the order of `result.failures`.
        public var explanations: [[String]]
        /// Each kept failure's state named (`exec;model=...;seed=...;crash=...`).
        public var reproducers: [String]
        /// With `keep`, the directory each kept failure was written to.
        public var keptDirectories: [String]
    }

    public var configuration: Configuration

    /// The most failing states grouped by cause (the rest are counted, not grouped).
    static let groupedFailures = 100_000

    public init(configuration: Configuration) { self.configuration = configuration }

    /// Records the program, rebuilds its writes, and judges every crash state.
    public func run(progress: ((Int) -> Void)? = nil) throws(SimulatorError) -> Report {
        let started = Date()
        let run = try ExecRecorder.record(program: configuration.program, directory: configuration.directory)
        defer { run.remove() }
        let modelRoot = run.modelRoot
        let calls: [TracedCall]
        do throws(StraceTrace.Damage) {
            calls = try StraceTrace.parse(run.trace)
        } catch {
            throw .execFailed(reason: "strace's trace cannot be read: line \(error.line): \(error.reason)")
        }
        let replayed: ExecReplay.Result
        do throws(ExecReplay.Refusal) {
            replayed = try ExecReplay.replay(
                calls, root: run.workingCopy, modelRoot: modelRoot, tree: run.start, workload: configuration.program.joined(separator: " "))
        } catch {
            throw .unmodelled(line: error.line, reason: error.reason)
        }
        // The rebuild from the trace must hold what the run left on disk.
        let differences = ExecModel.differences(
            model: ExecModel.contents(of: run.start, at: modelRoot), disk: ExecModel.contents(ofDisk: run.workingCopy))
        guard differences.isEmpty else {
            throw .recordingMismatch(
                reason: "the files rebuilt from the trace differ from what the program left: "
                    + differences.prefix(3).joined(separator: "; ") + (differences.count > 3 ? " and \(differences.count - 3) more" : ""))
        }
        let recording = replayed.recording
        let judge = ExecJudge(
            check: configuration.check, modelRoot: modelRoot, output: replayed.output, scratch: run.scratch,
            timeout: configuration.checkTimeout)
        // First every distinct state written out and checked (checkers on every core), then the
        // states walked again for their verdicts. Every failing state is kept (up to
        // `groupedFailures`) to group them all; the report lists `keptFailures`.
        _ = Explorer.judgeEveryState(
            recording, model: configuration.model, seed: configuration.seed, maxStates: configuration.maxStates, keptFailures: 0,
            splitsRenames: configuration.splitsRenames, progress: progress
        ) { tree, crashPoint in
            judge.submit(tree, crashPoint: crashPoint)
            return []
        }
        judge.finish()
        var result = Explorer.judgeEveryState(
            recording, model: configuration.model, seed: configuration.seed, maxStates: configuration.maxStates,
            keptFailures: max(configuration.keptFailures, Self.groupedFailures), splitsRenames: configuration.splitsRenames,
            progress: nil
        ) { tree, crashPoint in judge.verdict(tree, crashPoint: crashPoint) }
        result.unique = judge.judged
        result.elapsedSeconds = Date().timeIntervalSince(started)
        let verdict = ExecVerdict(
            recording: recording, model: configuration.model, seed: configuration.seed,
            crashPoints: Set(result.failures.map(\.state.crashPoint)))
        let causes = result.failures.map { verdict.cause(of: $0.state) }
        var counts: [String: Int] = [:]
        for cause in causes { counts[cause, default: 0] += 1 }
        let groups = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map {
            (cause: $0.key, states: $0.value)
        }
        let first = result.failures.min { $0.state.crashPoint < $1.state.crashPoint }
        result.failures = Array(result.failures.prefix(configuration.keptFailures))
        let reproducers = result.failures.map { "exec;model=\(configuration.model.rawValue);seed=\(configuration.seed);\($0.state.text)" }
        var kept: [String] = []
        if let keep = configuration.keep {
            kept = try Self.keep(
                result.failures, recording: recording, model: configuration.model, seed: configuration.seed, modelRoot: modelRoot,
                output: replayed.output, in: keep)
        }
        return Report(
            configuration: configuration, operations: recording.operations.count, outputs: replayed.output.count, result: result,
            outside: replayed.outside, notes: replayed.notes, groups: groups, firstUnsafeStep: first.map { verdict.unsafeStep($0.state) },
            explanations: result.failures.map { verdict.explanation(of: $0.state) }, reproducers: reproducers, keptDirectories: kept)
    }

    /// Writes each failing state into `directory` (`state-1/NAME`, its output beside as
    /// `state-1/output-before-crash`); returns the state directories.
    static func keep(
        _ failures: [FailureReport], recording: Recording, model: PersistenceModel, seed: UInt64, modelRoot: String,
        output: [(afterOperations: Int, bytes: [UInt8])],
        in directory: String
    ) throws(SimulatorError) -> [String] {
        var written: [String] = []
        // Named absolute in the document, wherever it is read from.
        let directory = directory.hasPrefix("/") ? directory : joinPath(FileManager.default.currentDirectoryPath, directory)
        for (index, failure) in failures.enumerated() {
            let reproducer = Reproducer(workload: recording.workload, model: model, writeProtocol: .safe, seed: seed, state: failure.state)
            let state = joinPath(directory, "state-\(index + 1)")
            do {
                let (tree, _) = try Replayer().materialise(reproducer, recording: recording)
                try ExecModel.write(tree, at: modelRoot, to: state + modelRoot)
                let printed = output.prefix { $0.afterOperations <= failure.state.crashPoint }.flatMap(\.bytes)
                try Data(printed).write(to: URL(fileURLWithPath: joinPath(state, "output-before-crash")))
            } catch {
                throw .execFailed(reason: "cannot write the failing state into \(state): \(error)")
            }
            written.append(state + modelRoot)
        }
        return written
    }
}
