/// How much of the crash-state space to explore, and which part.
public struct ExplorationOptions: Sendable {
    public var model: PersistenceModel
    /// Seeds the sampling of large pending sets and garbage bytes.
    public var seed: UInt64
    /// Stop after exploring this many states (the run is then reported as truncated).
    public var maxStates: Int
    /// This run explores shard `shard.index` (1-based) of `shard.count`.
    public var shard: (index: Int, count: Int)
    /// Worker threads (partitions are fixed, so results do not depend on this).
    public var threads: Int
    /// Failing states kept with their reproducers, the first in crash order; the others are
    /// counted only (`ExplorationResult.failuresOmitted`), so that memory stays bounded.
    public var keptFailures: Int
    /// Crash points explored at most per recovery, a seeded sample of them (nil: every point;
    /// see `RecoveryCrashPoints`).
    public var recoveryCrashSample: Int?
    /// Whether the judge takes its shortcuts: compares directories by content hash, remembers
    /// oracle answers and set-aside captures by it, and finishes a recovery from the remembered
    /// second stage of an earlier one that reached the same midpoint (false: every file read every
    /// time and every recovery's second stage run by the store, to check that the shortcuts change
    /// no verdict).
    public var takesShortcuts = true

    /// The default `keptFailures`.
    public static let defaultKeptFailures = 10_000

    public init(
        model: PersistenceModel = .pessimistic, seed: UInt64 = 1, maxStates: Int = 1_000_000,
        shard: (index: Int, count: Int) = (1, 1), threads: Int = 2, keptFailures: Int = ExplorationOptions.defaultKeptFailures,
        recoveryCrashSample: Int? = nil
    ) {
        self.model = model
        self.seed = seed
        self.maxStates = maxStates
        self.shard = shard
        self.threads = threads
        self.keptFailures = keptFailures
        self.recoveryCrashSample = recoveryCrashSample
    }

    /// The most shards a run splits into: one partition each (see `Explorer.partitions`).
    public static let maxShards = 24

    /// Parses `K/N` (1 <= K <= N <= `maxShards`).
    public static func parseShard(_ text: String) -> (index: Int, count: Int)? {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), (1...maxShards).contains(count),
            (1...count).contains(index)
        else { return nil }
        return (index, count)
    }
}

/// A failing crash state, with what failed and how to run it again.
public struct FailureReport: Sendable {
    public var oracle: OracleKind
    /// Number of operations issued before the crash (the crash is after operation `crashAfter`, counted from 1).
    public var crashAfter: Int
    public var state: CrashState
    public var message: String
    /// Every finding of the state (the first is `oracle`/`message`).
    public var findings: [Finding]
}

/// What an exploration found.
public struct ExplorationResult: Sendable {
    /// States explored: those the generator made plus the crash states of recovery itself.
    public var explored = 0
    /// Of `explored`, the states of crashes during recovery.
    public var recoveryCrashStates = 0
    /// Times the store's recovery ran, and times a remembered run was replayed instead.
    public var recoveryRuns = 0
    /// Recoveries with more crash points than `ExplorationOptions.recoveryCrashSample` (raised to
    /// `RecoveryCrashPoints.smallestSample`), whose crash points were sampled, and the points of
    /// theirs left unexplored.
    public var sampledRecoveries = 0
    public var unexploredRecoveryCrashes = 0
    /// Of `recoveryRuns`, those whose second stage was applied from an earlier run that reached
    /// the same midpoint (see `RecoveryTails`) instead of being run by the store.
    public var resumedRecoveries = 0
    /// Distinct trees judged, counted per partition (the unit shards split, so that shards add up).
    public var unique = 0
    /// Crash points whose sets of lost operations were sampled rather than explored whole, and
    /// the states of the persistence model left out there (see `CrashStateGenerator`).
    public var sampledCrashPoints = 0
    public var statesLeftOut = 0.0
    /// Of `recoveryCrashStates`, those in which some of recovery's own unsynced operations were
    /// lost or torn (the pessimistic model only).
    public var recoveryPowerLossStates = 0
    public var failed = 0
    public var failuresByOracle: [OracleKind: Int] = [:]
    /// The failing states kept (the first `keptFailures` in crash order, then oracle, then
    /// reproducer; all of them unless more failed).
    public var failures: [FailureReport] = []
    /// Failing states counted but not kept.
    public var failuresOmitted: Int { failed - failures.count }
    /// True when `maxStates` stopped the exploration early.
    public var truncated = false
    public var elapsedSeconds = 0.0

    public var statesPerSecond: Double { elapsedSeconds > 0 ? Double(explored) / elapsedSeconds : 0 }
}
