import CrashSimulator
import Foundation

/// The text view of `crash-test`: what ran, how much was explored, and the failures with their reproducers.
enum CrashTestText {
    /// Prints a run; lists at most `shown` failures and says how many more there are.
    static func print(_ fields: CrashTestDocument.Fields, shown: Int = 20) {
        if let exec = fields.exec {
            printExec(fields, exec, shown: shown)
            return
        }
        Output.line(
            "crash-test: workload \(fields.workload), \(fields.mode == "kill" ? "real kills" : "model \(fields.model)"), protocol \(fields.writeProtocol), seed \(fields.seed)\(fields.shard == "1/1" ? "" : ", shard \(fields.shard)")"
        )
        if let kills = fields.kills {
            Output.line(
                "\(fields.operations) file operations per run, \(fields.acks) acknowledged saves; \(kills) kills in \(format(fields.elapsedSeconds)) s"
            )
        } else {
            Output.line("recorded \(fields.operations) file operations, \(fields.acks) acknowledged saves")
            let rate = fields.elapsedSeconds > 0 ? Int(Double(fields.explored) / fields.elapsedSeconds) : 0
            Output.line(
                "explored \(fields.explored) crash states (\(fields.unique) distinct) in \(format(fields.elapsedSeconds)) s, \(rate) states/s\(fields.truncated ? " (stopped at --max-states: incomplete)" : "")"
            )
            if let sampled = fields.sampled, sampled.crashPoints > 0 {
                Output.line(
                    "sampled: at \(sampled.crashPoints) crash points the sets of lost operations were sampled, \(leftOutText(sampled.leftOut)) states of the model left out"
                )
            }
            if fields.recoveryPowerLossStates > 0 {
                Output.line(
                    "power loss during recovery: \(fields.recoveryPowerLossStates) states with recovery's own unsynced operations lost or torn"
                )
            }
            if let recovery = fields.recovery, recovery.sampled > 0 {
                Output.line(
                    "crashes during recovery: \(recovery.sampled) long recoveries crashed at a seeded sample of their points (--recovery-crash-sample), \(recovery.unexplored) points left out"
                )
            }
        }
        if let restores = fields.restores {
            Output.line(
                "what \(fields.browser) loads: the last returned save or later in \(restores.latest) states, an earlier save in \(restores.older), nothing of a window in \(restores.lost), bytes no save wrote in \(restores.torn)"
            )
        }
        for loss in fields.chromeRuleLosses {
            Output.line("allowed by Chrome's loading rules, while a copy of the session is in Backups/: \(loss)")
        }
        if fields.failed == 0 {
            Output.line("no failing state")
            return
        }
        let counts = OracleKindOrder.sorted(fields.failuresByOracle).map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ")
        Output.line("failing states: \(fields.failed) (\(counts))")
        for failure in fields.failures.prefix(shown) {
            Output.line()
            let others = failure.oracles.dropFirst().map(\.rawValue)
            Output.line(
                "FAIL \(failure.oracle.rawValue)\(others.isEmpty ? "" : " (also \(others.joined(separator: ", ")))"), crash after operation \(failure.crashAfter): \(failure.message)"
            )
            if let directory = failure.directory { Output.line("  on-disk state kept in \(directory)") }
            Output.line("  reproducer: \(failure.reproducer)")
        }
        let hidden = fields.failed - min(shown, fields.failures.count)
        if hidden > 0 {
            Output.line()
            Output.line(
                "\(hidden) more failing state\(hidden == 1 ? "" : "s") not shown (--format json lists every one; --max-failures sets how many)"
            )
        }
        if fields.mode != "kill", let first = fields.failures.first {
            Output.line()
            Output.line("replay one with: sessionctl crash-test --replay '\(first.reproducer)'")
        }
    }

    /// The text of a `--exec` run: the program, what it did, the failures grouped by cause with
    /// the first unsafe step, then each listed failure explained.
    static func printExec(_ fields: CrashTestDocument.Fields, _ exec: CrashTestDocument.ExecSummary, shown: Int) {
        Output.line("crash-test --exec: \(fields.workload) in a copy of \(exec.directory), model \(fields.model), seed \(fields.seed)")
        Output.line("recorded \(fields.operations) file operations on its files and \(exec.outputs) writes to its output")
        let outside = exec.outside.values.reduce(0, +)
        if outside > 0 { Output.line("not crash-tested: \(outside) calls on files outside the directory") }
        for note in exec.notes.prefix(3) { Output.line("note: \(note)") }
        let rate = fields.elapsedSeconds > 0 ? Int(Double(fields.explored) / fields.elapsedSeconds) : 0
        Output.line(
            "explored \(fields.explored) crash states (\(fields.unique) given to the checker) in \(format(fields.elapsedSeconds)) s, \(rate) states/s\(fields.truncated ? " (stopped at --max-states: incomplete)" : "")"
        )
        if fields.failed == 0 {
            Output.line("no failing state: the checker accepts every crash state")
            return
        }
        let counts = OracleKindOrder.sorted(fields.failuresByOracle).map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ")
        Output.line("failing states: \(fields.failed) (\(counts))")
        if let step = exec.firstUnsafeStep { Output.line("first unsafe step: \(step)") }
        Output.line("failures by what led to them:")
        for group in exec.groups.prefix(10) { Output.line("  \(group.states) \(group.states == 1 ? "state" : "states"): \(group.cause)") }
        for failure in fields.failures.prefix(shown) {
            Output.line()
            Output.line("FAIL \(failure.oracle.rawValue), crash after operation \(failure.crashAfter): \(failure.message)")
            for line in failure.explanation { Output.line("  \(line)") }
            if let directory = failure.directory { Output.line("  state kept in \(directory)") }
        }
        let hidden = fields.failed - min(shown, fields.failures.count)
        if hidden > 0 {
            Output.line()
            Output.line(
                "\(hidden) more failing state\(hidden == 1 ? "" : "s") not shown (--format json lists every one; --max-failures sets how many)"
            )
        }
    }

    /// The progress line of a simulated run: crash points and generated states of this shard done
    /// out of their totals, states explored (recovery crash states included), rate and time left.
    static func progress(_ now: Explorer.Progress, elapsed: Double) -> String {
        let rate = elapsed > 0 ? Double(now.explored) / elapsed : 0
        var text = "crash points \(now.crashPointsDone)/\(now.crashPointsTotal), states \(now.generatedDone)/\(now.generatedTotal)"
        text += " (+\(now.explored - now.generatedDone) in recovery), \(Int(rate)) states/s"
        if now.generatedDone > 0, now.generatedDone < now.generatedTotal, elapsed > 1 {
            let left = elapsed * Double(now.generatedTotal - now.generatedDone) / Double(now.generatedDone)
            text += ", about \(Int(left.rounded())) s left"
        }
        return text
    }

    /// A count of states left out: exact while it is, else in powers of ten.
    static func leftOutText(_ value: Double) -> String {
        if value < 1e15 { return String(Int64(value)) }
        return value.isFinite ? "about 10^\(Int(log10(value)))" : "more than 10^308"
    }

    private static func format(_ seconds: Double) -> String {
        String(Double(Int(seconds * 100)) / 100)
    }
}

/// Oracle counts in the order the oracles are listed.
enum OracleKindOrder {
    static func sorted(_ counts: [OracleKind: Int]) -> [(key: OracleKind, value: Int)] {
        counts.sorted { $0.key < $1.key }
    }
}
