/// Recovery: it runs without error, notices that the previous run did not exit cleanly, and is
/// idempotent (a second run finds nothing to do and restores the same). That a crash during
/// recovery is itself recoverable is checked by exploring those crash states like any other.
public enum RecoveryOracle {
    static func check(first: Result<RecoveryOutcome, any Error>, second: Result<RecoveryOutcome, any Error>?) -> [Finding] {
        let outcome: RecoveryOutcome
        switch first {
        case .failure(let error): return [Finding(.recovery, "recovery failed: \(error)")]
        case .success(let value): outcome = value
        }
        guard let second else { return [] }
        switch second {
        case .failure(let error):
            return [Finding(.recovery, "recovery run a second time failed: \(error)")]
        case .success(let again):
            var findings: [Finding] = []
            if !again.changes.isEmpty {
                findings.append(
                    Finding(
                        .recovery,
                        "recovery is not idempotent: a second run changed the disk again (\(again.changes.joined(separator: "; ")))"))
            }
            if again.restored != outcome.restored {
                findings.append(
                    Finding(
                        .recovery,
                        "recovery is not idempotent: a second run restores something else (\(outcome.restored.keys.sorted().joined(separator: ", ")) vs \(again.restored.keys.sorted().joined(separator: ", ")))"
                    ))
            }
            return findings
        }
    }

    /// The finding when a crash was not noticed although the app was running.
    static func checkDetection(_ outcome: RecoveryOutcome?, expected: Bool) -> Finding? {
        guard expected, let outcome, !outcome.detectedCrash else { return nil }
        return Finding(.recovery, "recovery did not notice the crash: the app was running and did not exit cleanly")
    }
}
