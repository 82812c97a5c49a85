import SessionFormats

/// The `sessionctl.crash-test/1` JSON document of cli.md.
public enum CrashTestDocument {
    public static let schema = "sessionctl.crash-test/1"

    /// One failure as listed in the document.
    public struct Failure: Sendable {
        public var oracle: OracleKind
        public var crashAfter: Int
        public var reproducer: String
        public var message: String
        /// Kill mode: the directory holding the failing on-disk state.
        public var directory: String?

        public init(oracle: OracleKind, crashAfter: Int, reproducer: String, message: String, directory: String? = nil) {
            self.oracle = oracle
            self.crashAfter = crashAfter
            self.reproducer = reproducer
            self.message = message
            self.directory = directory
        }
    }

    /// The fields of a document.
    public struct Fields: Sendable {
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
        /// Kill mode: number of kills made.
        public var kills: Int?
        /// Simulated mode: times the store's recovery ran, times a remembered run was replayed,
        /// recoveries whose crash points were sampled and the points of theirs left unexplored.
        public var recovery: (runs: Int, replays: Int, sampled: Int, unexplored: Int)?

        public init(workload: String, model: String, writeProtocol: String, mode: String, seed: UInt64, shard: String,
                    operations: Int, acks: Int, explored: Int, unique: Int, failed: Int, truncated: Bool,
                    elapsedSeconds: Double, failuresByOracle: [OracleKind: Int], failures: [Failure], kills: Int? = nil,
                    recovery: (runs: Int, replays: Int, sampled: Int, unexplored: Int)? = nil) {
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
            self.kills = kills
            self.recovery = recovery
        }
    }

    /// The fields of a simulated run.
    public static func fields(_ report: CrashTest.Report) -> Fields {
        let configuration = report.configuration
        let result = report.result
        return Fields(
            workload: configuration.workload, model: configuration.model.rawValue,
            writeProtocol: configuration.writeProtocol.rawValue, mode: "simulated", seed: configuration.exploration.seed,
            shard: "\(configuration.exploration.shard.index)/\(configuration.exploration.shard.count)",
            operations: report.operations, acks: report.acknowledgements, explored: result.explored, unique: result.unique,
            failed: result.failed, truncated: result.truncated, elapsedSeconds: result.elapsedSeconds,
            failuresByOracle: result.failuresByOracle,
            failures: result.failures.map { Failure(oracle: $0.oracle, crashAfter: $0.crashAfter, reproducer: report.reproducer($0).text, message: $0.message) },
            recovery: (result.recoveryRuns, result.recoveryReplays, result.sampledRecoveries, result.unexploredRecoveryCrashes))
    }

    /// The fields of a kill loop.
    public static func fields(_ report: KillLoop.Report) -> Fields {
        let configuration = report.configuration
        return Fields(
            workload: configuration.workload, model: PersistenceModel.process.rawValue,
            writeProtocol: configuration.writeProtocol.rawValue, mode: "kill", seed: configuration.seed, shard: "1/1",
            operations: report.operations, acks: report.acknowledgements, explored: report.kills, unique: report.distinct,
            failed: report.failed, truncated: false, elapsedSeconds: report.elapsedSeconds, failuresByOracle: report.failuresByOracle,
            failures: report.failures.prefix(50).map {
                Failure(oracle: $0.oracle, crashAfter: $0.crashAfter ?? -1, reproducer: $0.reproducer, message: $0.message, directory: $0.directory)
            },
            kills: report.kills)
    }

    public static func encode(_ fields: Fields) -> JSONValue {
        let elapsed = (fields.elapsedSeconds * 1000).rounded() / 1000
        let rate = fields.elapsedSeconds > 0 ? (Double(fields.explored) / fields.elapsedSeconds * 10).rounded() / 10 : 0
        var members: [(String, JSONValue)] = [
            ("schema", .string(schema)),
            ("workload", .string(fields.workload)),
            ("model", .string(fields.model)),
            ("protocol", .string(fields.writeProtocol)),
            ("mode", .string(fields.mode)),
            ("seed", .int(Int64(clamping: fields.seed))),
            ("shard", .string(fields.shard)),
            ("operations", .int(Int64(fields.operations))),
            ("acks", .int(Int64(fields.acks))),
        ]
        if let kills = fields.kills { members.append(("kills", .int(Int64(kills)))) }
        members += [
            ("states", .object([("explored", .int(Int64(fields.explored))), ("unique", .int(Int64(fields.unique))), ("failed", .int(Int64(fields.failed)))])),
            ("truncated", .bool(fields.truncated)),
        ]
        if let recovery = fields.recovery {
            members.append(("recovery", .object([
                ("runs", .int(Int64(recovery.runs))), ("replays", .int(Int64(recovery.replays))),
                ("sampledRecoveries", .int(Int64(recovery.sampled))), ("unexploredCrashPoints", .int(Int64(recovery.unexplored))),
            ])))
        }
        members += [
            ("elapsedSeconds", .double(elapsed)),
            ("statesPerSecond", .double(rate)),
            ("failuresByOracle", .object(OracleKind.allCases.compactMap { oracle in fields.failuresByOracle[oracle].map { (oracle.rawValue, .int(Int64($0))) } })),
            ("failures", .array(fields.failures.map { failure in
                var entry: [(String, JSONValue)] = [
                    ("oracle", .string(failure.oracle.rawValue)), ("crashAfter", .int(Int64(failure.crashAfter))),
                    ("reproducer", .string(failure.reproducer)), ("message", .string(failure.message)),
                ]
                if let directory = failure.directory { entry.append(("directory", .string(directory))) }
                return .object(entry)
            })),
        ]
        return .object(members)
    }
}
