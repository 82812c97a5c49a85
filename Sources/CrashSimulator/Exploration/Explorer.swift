import Dispatch
import Foundation
import Synchronization

/// Explores the crash states of a recording: walks the crash points in order, keeps the durable
/// base of each up to date, materialises each generated state on it with the journal, judges it
/// (recovery and every oracle, once per distinct tree), rolls it back.
///
/// The crash points are cut into a fixed number (`partitions`) of contiguous partitions of about
/// equal work, each explored with its own tree and verdicts, on as many threads as asked; results
/// do not depend on the thread count. A partition is the unit shards split: shard K of N explores
/// the partitions whose number is K-1 modulo N, exactly as a whole run explores them (recovery
/// crash states included), so the explored and failed counts and the failures of the N shards
/// add up to the whole run's.
public struct Explorer: Sendable {
    public let recording: Recording
    public let runner: any RecoveryRunner
    public let options: ExplorationOptions
    /// Partitions of the crash points: fixed, whatever the shard count, so that shards split the
    /// very partitions a whole run explores (24 divides evenly among 2, 3, 4, 6, 8 and 12 shards).
    public var partitions = ExplorationOptions.maxShards

    public init(recording: Recording, runner: any RecoveryRunner, options: ExplorationOptions) {
        self.recording = recording
        self.runner = runner
        self.options = options
    }

    /// The states of crash point `crashPoint`, with the pending operations they select from.
    struct CrashPointStates {
        var pending: [Int]
        var states: [CrashState]
        /// States of the model at this crash point that sampling left out.
        var leftOut: Double
    }

    /// Walks the recording's operations, calling `body` with the states of each crash point from
    /// `first` on (those before are passed without making their states); returns after `body`
    /// says so or at the end. `apply` is called with each operation that becomes certain, in
    /// order, after the states of the crash point it ends are handled.
    static func walk(
        _ recording: Recording, _ generator: CrashStateGenerator, from first: Int = 0, through last: Int,
        apply: (Int) -> Void, body: (Int, CrashPointStates) -> Bool
    ) {
        var pending = PendingOperations(model: generator.model)
        let acknowledged = Set(recording.acknowledgements.map(\.afterOperations))
        let operations = recording.operations
        var lastCheckpoint = 0
        for crashPoint in 0...min(last, operations.count) {
            let checkpoint = crashPoint == operations.count || operations[crashPoint].effect.isBarrier || acknowledged.contains(crashPoint)
            if crashPoint >= first {
                let indices = pending.indices
                let fresh = checkpoint ? indices.filter { $0 >= lastCheckpoint } : []
                let generated = generator.generate(
                    at: crashPoint, operations: operations, pending: indices, fresh: fresh, checkpoint: checkpoint)
                guard body(crashPoint, CrashPointStates(pending: indices, states: generated.states, leftOut: generated.leftOut)) else {
                    return
                }
            }
            if checkpoint { lastCheckpoint = crashPoint }
            if crashPoint < operations.count {
                for index in pending.issue(crashPoint, operations[crashPoint].effect) { apply(index) }
            }
        }
    }

    /// Whether partition `number` (0-based) belongs to this run's shard.
    func inShard(partition number: Int) -> Bool {
        number % options.shard.count == options.shard.index - 1
    }

    /// How far a run has got, for a progress line.
    public struct Progress: Sendable {
        /// States explored so far (generated ones and recovery crash states).
        public var explored: Int
        /// Generated states of this shard explored so far, and in all (known from the start).
        public var generatedDone: Int
        public var generatedTotal: Int
        /// Crash points of this shard passed so far, and in all.
        public var crashPointsDone: Int
        public var crashPointsTotal: Int
    }

    /// Explores; `progress` is called now and then (from the calling thread) with the states explored so far.
    public func run(progress: ((Int) -> Void)? = nil) -> ExplorationResult {
        run(reporting: progress.map { report in { report($0.explored) } })
    }

    /// Explores; `reporting` is called about five times a second (from the calling thread).
    public func run(reporting: ((Progress) -> Void)?) -> ExplorationResult {
        let start = DispatchTime.now()
        let generator = CrashStateGenerator(model: options.model, seed: options.seed)
        // Cut the crash points into partitions of about equal numbers of states.
        var weights: [Int] = []
        Explorer.walk(recording, generator, through: recording.operations.count, apply: { _ in }) { _, point in
            weights.append(point.states.count)
            return true
        }
        let total = max(1, weights.reduce(0, +))
        var bounds: [Range<Int>] = []
        var lower = 0
        var running = 0
        for (crashPoint, weight) in weights.enumerated() {
            running += weight
            let target = total * (bounds.count + 1) / partitions
            if running >= target && bounds.count < partitions - 1 {
                bounds.append(lower..<(crashPoint + 1))
                lower = crashPoint + 1
            }
        }
        bounds.append(lower..<weights.count)
        let ranges = bounds.enumerated().filter { !$0.element.isEmpty && inShard(partition: $0.offset) }.map(\.element)
        let generatedTotal = ranges.reduce(0) { sum, range in sum + weights[range].reduce(0, +) }
        let crashPointsTotal = ranges.reduce(0) { $0 + $1.count }

        let counters = Counters()
        let results = Mutex<[(Int, PartitionResult)]>([])
        let group = DispatchGroup()
        let workers = max(1, min(options.threads, ranges.count))
        let work = self
        for _ in 0..<workers {
            group.enter()
            DispatchQueue.global().async {
                let caches = JudgeCaches(recording: work.recording, takesShortcuts: work.options.takesShortcuts)
                while true {
                    let number = counters.nextPartition.add(1, ordering: .relaxed).oldValue
                    guard number < ranges.count else { break }
                    let result = work.explore(ranges[number], generator: generator, counters: counters, caches: caches)
                    results.withLock { $0.append((number, result)) }
                }
                group.leave()
            }
        }
        let snapshot = {
            Progress(
                explored: counters.explored.load(ordering: .relaxed), generatedDone: counters.generated.load(ordering: .relaxed),
                generatedTotal: generatedTotal, crashPointsDone: counters.crashPoints.load(ordering: .relaxed),
                crashPointsTotal: crashPointsTotal)
        }
        while group.wait(timeout: .now() + .milliseconds(200)) == .timedOut {
            reporting?(snapshot())
        }
        reporting?(snapshot())

        var result = ExplorationResult()
        var failures: [FailureReport] = []
        for (_, partition) in results.withLock({ $0 }).sorted(by: { $0.0 < $1.0 }) {
            result.explored += partition.explored
            result.recoveryCrashStates += partition.recoveryCrashStates
            result.recoveryRuns += partition.recoveryRuns
            result.sampledRecoveries += partition.sampledRecoveries
            result.unexploredRecoveryCrashes += partition.unexploredRecoveryCrashes
            result.resumedRecoveries += partition.resumedRecoveries
            result.failed += partition.failed
            result.truncated = result.truncated || partition.truncated
            for (oracle, count) in partition.failuresByOracle { result.failuresByOracle[oracle, default: 0] += count }
            result.unique += partition.unique
            result.sampledCrashPoints += partition.sampledCrashPoints
            result.statesLeftOut += partition.statesLeftOut
            result.recoveryPowerLossStates += partition.recoveryPowerLossStates
            failures += partition.failures
        }
        // Each partition kept its first `keptFailures` in crash order, so the first of the whole
        // run are among them, whatever the partitions.
        result.failures = Array(
            failures.map { ($0, $0.state.text) }
                .sorted { ($0.0.crashAfter, $0.0.oracle, $0.1) < ($1.0.crashAfter, $1.0.oracle, $1.1) }
                .prefix(options.keptFailures).map(\.0))
        result.elapsedSeconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        return result
    }

    /// Counters shared by the worker threads.
    final class Counters: Sendable {
        let explored = Atomic<Int>(0)
        let generated = Atomic<Int>(0)
        let crashPoints = Atomic<Int>(0)
        let nextPartition = Atomic<Int>(0)
    }

    struct PartitionResult: Sendable {
        var explored = 0
        var recoveryCrashStates = 0
        var recoveryRuns = 0
        var sampledRecoveries = 0
        var unexploredRecoveryCrashes = 0
        var resumedRecoveries = 0
        var failed = 0
        var truncated = false
        var failuresByOracle: [OracleKind: Int] = [:]
        var failures: [FailureReport] = []
        /// Distinct trees judged in the partition.
        var unique = 0
        var sampledCrashPoints = 0
        var statesLeftOut = 0.0
        var recoveryPowerLossStates = 0
    }

    /// Explores the crash points of one partition (`caches`: the worker's, kept across its partitions).
    func explore(_ range: Range<Int>, generator: CrashStateGenerator, counters: Counters, caches: JudgeCaches) -> PartitionResult {
        let tree = ModelTree(snapshot: recording.initial, names: recording.names)
        // Room for the inodes of the recovery runs (a few thousand past their first, more when
        // a run makes more: the nodes then grow as usual).
        tree.reserveInodes(Int(StateJudge.firstRecoveryInode(recording)) + 4_096)
        let judge = StateJudge(recording: recording, runner: runner, caches: caches)
        judge.seed = options.seed
        judge.recoveryCrashSample = options.recoveryCrashSample
        judge.model = options.model
        // Acknowledgements only accumulate: the partition's last crash point has them all.
        judge.detailedPrivacyGroups = CrashContext(recording: recording, crashPoint: range.upperBound - 1).privacyGroups
        let materialiser = Materialiser(recording: recording, seed: options.seed)
        var result = PartitionResult()
        Explorer.walk(
            recording, generator, from: range.lowerBound, through: range.upperBound - 1,
            apply: { index in
                tree.apply(recording.operations[index].effect, index: Int32(index))
            }
        ) { crashPoint, point in
            let context = CrashContext(recording: recording, crashPoint: crashPoint)
            if point.leftOut > 0 {
                result.sampledCrashPoints += 1
                result.statesLeftOut += point.leftOut
            }
            tree.isJournaling = true
            defer {
                tree.isJournaling = false
                counters.crashPoints.add(1, ordering: .relaxed)
            }
            for state in point.states {
                if counters.explored.add(1, ordering: .relaxed).oldValue >= options.maxStates {
                    result.truncated = true
                    return false
                }
                counters.generated.add(1, ordering: .relaxed)
                result.explored += 1
                let mark = tree.mark()
                materialiser.materialise(state, pending: point.pending, on: tree)
                let judgedBefore = judge.recoveryCrashStates
                let fresh = judge.verdicts[tree.hash] == nil
                let verdict = judge.verdict(tree)
                note(state, verdict.findings(in: context), into: &result)
                if fresh {
                    let children = judge.recoveryCrashStates - judgedBefore
                    result.explored += children
                    result.recoveryCrashStates += children
                    counters.explored.add(children, ordering: .relaxed)
                    for (crash, child) in verdict.recoveryCrashes {
                        var childState = state
                        childState.recoveryCrash = crash.steps
                        childState.recoveryCut = crash.cut
                        childState.recoveryKeep = crash.keep
                        childState.recoveryTear = crash.tear
                        note(childState, child.findings(in: context.forRecoveryCrash) + crash.findings, into: &result)
                    }
                }
                tree.rollback(to: mark)
            }
            return true
        }
        result.unique = judge.judgedHashes.count
        result.recoveryRuns = judge.recoveryRuns
        result.resumedRecoveries = judge.resumedRecoveries
        result.sampledRecoveries = judge.sampledRecoveries
        result.unexploredRecoveryCrashes = judge.unexploredRecoveryCrashes
        result.recoveryPowerLossStates = judge.recoveryPowerLossStates
        result.sampledCrashPoints += judge.powerLossSampledCheckpoints
        result.statesLeftOut += judge.powerLossLeftOut
        return result
    }

    /// Counts a failing state, and keeps it while the partition has kept fewer than `keptFailures`.
    private func note(_ state: CrashState, _ findings: [Finding], into result: inout PartitionResult) {
        guard let first = findings.first else { return }
        result.failed += 1
        for oracle in Set(findings.map(\.oracle)) { result.failuresByOracle[oracle, default: 0] += 1 }
        guard result.failures.count < options.keptFailures else { return }
        result.failures.append(
            FailureReport(
                oracle: first.oracle, crashAfter: state.crashPoint, state: state,
                message: first.message, findings: findings))
    }
}
