import SessionFormats

extension CrashTestDocument {
    /// What a `--exec` run adds to the document: the program, its checker, and the failures'
    /// causes.
    public struct ExecSummary: Sendable {
        public var program: [String]
        public var directory: String
        public var check: String
        /// Writes of the program to its standard output.
        public var outputs: Int
        /// The failing states listed, grouped by what led to them, most frequent first.
        public var groups: [(cause: String, states: Int)]
        public var firstUnsafeStep: String?
        /// Calls on files outside the directory, by call (not crash-tested).
        public var outside: [String: Int]
        public var notes: [String]
    }

    /// The fields of a `--exec` run, listing at most `maxFailures` failures (all when nil).
    public static func fields(_ report: ExecCrashTest.Report, maxFailures: Int? = nil) -> Fields {
        let configuration = report.configuration
        let result = report.result
        let listed = Array(result.failures.prefix(maxFailures ?? Int.max).enumerated())
        var fields = Fields(
            workload: configuration.program.joined(separator: " "), model: configuration.model.rawValue, writeProtocol: "exec",
            mode: "exec", seed: configuration.seed, shard: "1/1", operations: report.operations, acks: report.outputs,
            explored: result.explored, unique: result.unique, failed: result.failed, truncated: result.truncated,
            elapsedSeconds: result.elapsedSeconds, failuresByOracle: result.failuresByOracle,
            failures: listed.map { index, failure in
                var listed = Failure(
                    oracle: failure.oracle, oracles: oracles(failure.findings), crashAfter: failure.crashAfter,
                    reproducer: report.reproducers[index], message: failure.message,
                    directory: index < report.keptDirectories.count ? report.keptDirectories[index] : nil)
                listed.explanation = index < report.explanations.count ? report.explanations[index] : []
                return listed
            },
            failuresOmitted: result.failuresOmitted + max(0, result.failures.count - (maxFailures ?? Int.max)))
        fields.browser = "none"
        fields.sampled = (result.sampledCrashPoints, result.statesLeftOut)
        fields.exec = ExecSummary(
            program: configuration.program, directory: configuration.directory, check: configuration.check, outputs: report.outputs,
            groups: report.groups, firstUnsafeStep: report.firstUnsafeStep, outside: report.outside, notes: report.notes)
        return fields
    }

    static func encode(_ exec: ExecSummary) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("program", .array(exec.program.map { .string($0) })), ("directory", .string(exec.directory)),
            ("check", .string(exec.check)), ("outputs", .int(Int64(exec.outputs))),
            ("groups", .array(exec.groups.map { .object([("cause", .string($0.cause)), ("states", .int(Int64($0.states)))]) }))
        ]
        members.append(("firstUnsafeStep", exec.firstUnsafeStep.map { .string($0) } ?? .null))
        members.append(("outside", .object(exec.outside.sorted { $0.key < $1.key }.map { ($0.key, .int(Int64($0.value))) })))
        members.append(("notes", .array(exec.notes.map { .string($0) })))
        return .object(members)
    }
}
