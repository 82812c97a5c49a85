import SessionFormats

/// The `sessionctl.crash-test/1` JSON document of docs/cli.md.
public enum CrashTestDocument {
    public static let schema = "sessionctl.crash-test/1"

    /// One failure as listed in the document.
    public struct Failure: Sendable {
        public var oracle: OracleKind
        /// Every oracle that failed on the state (the first is `oracle`).
        public var oracles: [OracleKind]
        public var crashAfter: Int
        public var reproducer: String
        public var message: String
        /// Kill mode, and exec mode with `--keep`: the directory holding the failing on-disk state.
        public var directory: String?
        /// Exec mode: the state explained (the crash point, what was lost or torn).
        public var explanation: [String] = []

        public init(
            oracle: OracleKind, oracles: [OracleKind] = [], crashAfter: Int, reproducer: String, message: String, directory: String? = nil
        ) {
            self.oracle = oracle
            self.oracles = oracles.isEmpty ? [oracle] : oracles
            self.crashAfter = crashAfter
            self.reproducer = reproducer
            self.message = message
            self.directory = directory
        }
    }

    /// The fields of a document.
    public struct Fields: Sendable {
        /// The browser family whose save protocol is tested: the family of sessionctl's own store
        /// (`BrowserStores.defaultStoreBrowser`), whose profiles `--command` and `--kill` runs
        /// work on too, unless a `--store` run names its own.
        public var browser = BrowserStores.defaultStoreBrowser
        public var workload: String
        public var model: String
        public var writeProtocol: String
        public var mode: String
        public var seed: UInt64
        public var shard: String
        public var operations: Int
        public var acks: Int
        public var explored: Int
        public var unique: Int
        public var failed: Int
        public var truncated: Bool
        public var elapsedSeconds: Double
        public var failuresByOracle: [OracleKind: Int]
        public var failures: [Failure]
        /// Failing states not listed in `failures` (with `--max-failures`).
        public var failuresOmitted = 0
        /// `pass`, `fail` or `incomplete` (see `verdict(failed:truncated:)`).
        public var verdict: String { CrashTestDocument.verdict(failed: failed, truncated: truncated) }
        /// Kill mode: number of kills made.
        public var kills: Int?
        /// Simulated mode: times the store's recovery ran, times a remembered run was replayed, runs
        /// finished from a remembered second stage (counted among the runs), recoveries whose
        /// crash points were sampled and the points of theirs left unexplored.
        public var recovery: (runs: Int, replays: Int, resumed: Int, sampled: Int, unexplored: Int)?
        /// Simulated and command modes: crash points whose sets of lost operations were sampled
        /// rather than explored whole, and the states of the persistence model left out there.
        public var sampled: (crashPoints: Int, leftOut: Double)?
        /// Simulated mode: recovery crash states in which recovery's own unsynced operations were
        /// lost or torn (pessimistic model).
        public var recoveryPowerLossStates = 0
        /// Simulated mode: losses the starting profile's sessions suffer under Chrome's own
        /// loading rules, one line each naming the rule (allowed when recovery keeps a copy).
        public var chromeRuleLosses: [String] = []
        /// Store mode (`--store firefox-ios`): how the explored states load in the browser.
        public var restores: StoreOutcomes?
        /// Exec mode: the program, its checker, and what the failures have in common.
        public var exec: ExecSummary?

        public init(
            workload: String, model: String, writeProtocol: String, mode: String, seed: UInt64, shard: String,
            operations: Int, acks: Int, explored: Int, unique: Int, failed: Int, truncated: Bool,
            elapsedSeconds: Double, failuresByOracle: [OracleKind: Int], failures: [Failure], failuresOmitted: Int = 0,
            kills: Int? = nil, recovery: (runs: Int, replays: Int, resumed: Int, sampled: Int, unexplored: Int)? = nil
        ) {
            self.workload = workload
            self.model = model
            self.writeProtocol = writeProtocol
            self.mode = mode
            self.seed = seed
            self.shard = shard
            self.operations = operations
            self.acks = acks
            self.explored = explored
            self.unique = unique
            self.failed = failed
            self.truncated = truncated
            self.elapsedSeconds = elapsedSeconds
            self.failuresByOracle = failuresByOracle
            self.failures = failures
            self.failuresOmitted = failuresOmitted
            self.kills = kills
            self.recovery = recovery
        }
    }

    /// Every oracle of a list of findings, in order, each once.
    public static func oracles(_ findings: [Finding]) -> [OracleKind] {
        var oracles: [OracleKind] = []
        for finding in findings where !oracles.contains(finding.oracle) { oracles.append(finding.oracle) }
        return oracles
    }

    /// The fields of a simulated run, listing at most `maxFailures` failures (all when nil).
    public static func fields(_ report: CrashTest.Report, maxFailures: Int? = nil) -> Fields {
        let configuration = report.configuration
        let result = report.result
        var fields = Fields(
            workload: configuration.workload + (configuration.startingProfile.map { " from \($0)" } ?? ""),
            model: configuration.model.rawValue,
            writeProtocol: configuration.writeProtocol.rawValue, mode: "simulated", seed: configuration.exploration.seed,
            shard: "\(configuration.exploration.shard.index)/\(configuration.exploration.shard.count)",
            operations: report.operations, acks: report.acknowledgements, explored: result.explored, unique: result.unique,
            failed: result.failed, truncated: result.truncated, elapsedSeconds: result.elapsedSeconds,
            failuresByOracle: result.failuresByOracle,
            failures: result.failures.prefix(maxFailures ?? Int.max).map {
                Failure(
                    oracle: $0.oracle, oracles: oracles($0.findings), crashAfter: $0.crashAfter,
                    reproducer: report.reproducer($0).text, message: $0.message)
            },
            failuresOmitted: result.failuresOmitted + max(0, result.failures.count - (maxFailures ?? Int.max)),
            recovery: (
                // `replays` stays in the document, 0: recoveries are no longer replayed from traces.
                result.recoveryRuns, 0, result.resumedRecoveries, result.sampledRecoveries,
                result.unexploredRecoveryCrashes
            ))
        fields.chromeRuleLosses = report.chromeRuleLosses
        fields.sampled = (result.sampledCrashPoints, result.statesLeftOut)
        fields.recoveryPowerLossStates = result.recoveryPowerLossStates
        return fields
    }

    /// The fields of a `--command` run, listing at most `maxFailures` failures (all when nil).
    public static func fields(_ report: CommandCrashTest.Report, maxFailures: Int? = nil) -> Fields {
        let configuration = report.configuration
        let result = report.result
        var fields = Fields(
            workload: "\(configuration.command.rawValue) \(configuration.input)", model: configuration.model.rawValue,
            writeProtocol: configuration.writeProtocol.rawValue, mode: "command", seed: configuration.seed, shard: "1/1",
            operations: report.operations, acks: 0, explored: result.explored, unique: result.unique,
            failed: result.failed, truncated: result.truncated, elapsedSeconds: result.elapsedSeconds,
            failuresByOracle: result.failuresByOracle,
            failures: result.failures.prefix(maxFailures ?? Int.max).map {
                Failure(
                    oracle: $0.oracle, oracles: oracles($0.findings), crashAfter: $0.crashAfter,
                    reproducer: report.reproducer($0).text, message: $0.message)
            },
            failuresOmitted: result.failuresOmitted + max(0, result.failures.count - (maxFailures ?? Int.max)))
        fields.sampled = (result.sampledCrashPoints, result.statesLeftOut)
        return fields
    }

    /// The fields of a run of another browser's store (`mode` "store").
    package static func storeFields(
        browser: String, workload: String, model: PersistenceModel, saveProtocol: String, seed: UInt64, operations: Int, saves: Int,
        result: ExplorationResult, outcomes: StoreOutcomes, maxFailures: Int?, reproducer: (FailureReport) -> Reproducer
    ) -> Fields {
        var fields = Fields(
            workload: workload, model: model.rawValue, writeProtocol: saveProtocol,
            mode: "store", seed: seed, shard: "1/1", operations: operations, acks: saves,
            explored: result.explored, unique: result.unique, failed: result.failed, truncated: result.truncated,
            elapsedSeconds: result.elapsedSeconds, failuresByOracle: result.failuresByOracle,
            failures: result.failures.prefix(maxFailures ?? Int.max).map {
                Failure(
                    oracle: $0.oracle, oracles: oracles($0.findings), crashAfter: $0.crashAfter,
                    reproducer: reproducer($0).text, message: $0.message)
            },
            failuresOmitted: result.failuresOmitted + max(0, result.failures.count - (maxFailures ?? Int.max)))
        fields.browser = browser
        fields.sampled = (result.sampledCrashPoints, result.statesLeftOut)
        fields.restores = outcomes
        return fields
    }

    /// A count of states as JSON: an integer while it is exact, else the nearest double (the
    /// largest finite one past it).
    static func count(_ value: Double) -> JSONValue {
        if value < 9_007_199_254_740_992 { return .int(Int64(value)) }
        return .double(value.isFinite ? value : Double.greatestFiniteMagnitude)
    }

    /// The fields of a kill loop, listing at most `maxFailures` failures (all when nil).
    public static func fields(_ report: KillLoop.Report, maxFailures: Int? = nil) -> Fields {
        let configuration = report.configuration
        return Fields(
            workload: configuration.workload, model: PersistenceModel.process.rawValue,
            writeProtocol: configuration.writeProtocol.rawValue, mode: "kill", seed: configuration.seed, shard: "1/1",
            operations: report.operations, acks: report.acknowledgements, explored: report.kills, unique: report.distinct,
            failed: report.failed, truncated: false, elapsedSeconds: report.elapsedSeconds, failuresByOracle: report.failuresByOracle,
            failures: report.failures.prefix(maxFailures ?? Int.max).map {
                Failure(
                    oracle: $0.oracle, oracles: $0.oracles, crashAfter: $0.crashAfter ?? -1, reproducer: $0.reproducer,
                    message: $0.message, directory: $0.directory)
            },
            failuresOmitted: max(0, report.failures.count - (maxFailures ?? Int.max)),
            kills: report.kills)
    }

    /// `fail` when a state failed, else `incomplete` when the run stopped early, else `pass`.
    public static func verdict(failed: Int, truncated: Bool) -> String {
        failed > 0 ? "fail" : truncated ? "incomplete" : "pass"
    }

    public static func encode(_ fields: Fields) -> JSONValue {
        let elapsed = (fields.elapsedSeconds * 1000).rounded() / 1000
        let rate = fields.elapsedSeconds > 0 ? (Double(fields.explored) / fields.elapsedSeconds * 10).rounded() / 10 : 0
        var members: [(String, JSONValue)] = [
            ("schema", .string(schema)),
            ("browser", .string(fields.browser)),
            ("workload", .string(fields.workload)),
            ("model", .string(fields.model)),
            ("protocol", .string(fields.writeProtocol)),
            ("mode", .string(fields.mode)),
            ("seed", .int(Int64(clamping: fields.seed))),
            ("shard", .string(fields.shard)),
            ("operations", .int(Int64(fields.operations))),
            ("acks", .int(Int64(fields.acks)))
        ]
        if let kills = fields.kills { members.append(("kills", .int(Int64(kills)))) }
        var states: [(String, JSONValue)] = [
            ("explored", .int(Int64(fields.explored))), ("unique", .int(Int64(fields.unique))),
            ("failed", .int(Int64(fields.failed)))
        ]
        if let sampled = fields.sampled {
            states.append(("sampled", .object([("crashPoints", .int(Int64(sampled.crashPoints))), ("leftOut", count(sampled.leftOut))])))
        }
        members += [
            ("states", .object(states)),
            ("truncated", .bool(fields.truncated)),
            ("verdict", .string(fields.verdict))
        ]
        if let recovery = fields.recovery {
            members.append(
                (
                    "recovery",
                    .object([
                        ("runs", .int(Int64(recovery.runs))), ("replays", .int(Int64(recovery.replays))),
                        ("resumed", .int(Int64(recovery.resumed))), ("powerLossStates", .int(Int64(fields.recoveryPowerLossStates))),
                        ("sampledRecoveries", .int(Int64(recovery.sampled))), ("unexploredCrashPoints", .int(Int64(recovery.unexplored)))
                    ])
                ))
            members.append(("chromeRuleLosses", .array(fields.chromeRuleLosses.map { .string($0) })))
        }
        if let exec = fields.exec { members.append(("exec", encode(exec))) }
        if let restores = fields.restores {
            members.append(
                (
                    "restores",
                    .object([
                        ("latest", .int(Int64(restores.latest))), ("older", .int(Int64(restores.older))),
                        ("lost", .int(Int64(restores.lost))), ("torn", .int(Int64(restores.torn)))
                    ])
                ))
        }
        members += [
            ("elapsedSeconds", .double(elapsed)),
            ("statesPerSecond", .double(rate)),
            (
                "failuresByOracle",
                .object(
                    OracleKind.allCases.compactMap { oracle in fields.failuresByOracle[oracle].map { (oracle.rawValue, .int(Int64($0))) } })
            ),
            (
                "failures",
                .array(
                    fields.failures.map { failure in
                        var entry: [(String, JSONValue)] = [
                            ("oracle", .string(failure.oracle.rawValue)),
                            ("oracles", .array(failure.oracles.map { .string($0.rawValue) })),
                            ("crashAfter", .int(Int64(failure.crashAfter))),
                            ("reproducer", .string(failure.reproducer)), ("message", .string(failure.message))
                        ]
                        if let directory = failure.directory { entry.append(("directory", .string(directory))) }
                        if !failure.explanation.isEmpty { entry.append(("explanation", .array(failure.explanation.map { .string($0) }))) }
                        return .object(entry)
                    })
            ),
            ("failuresOmitted", .int(Int64(fields.failuresOmitted)))
        ]
        return .object(members)
    }
}
