import FileSystemKit
import SessionStore

/// Judges what a killed child left on disk: recovery runs on the real directory (twice, for
/// idempotence), and the simulator's oracles look at the directory before and after.
struct KillJudge {
    var suite: OracleSuite

    init(recording: Recording) { suite = OracleSuite(recording: recording) }

    /// The findings on the directory `profile` (which recovery changes), given what the child had
    /// acknowledged; and a hash of the state as the child left it.
    mutating func judge(profile: String, context: CrashContext) -> (findings: [Finding], hash: UInt64) {
        var details: [Int: String] = [:]
        let before = DiskLoader.load(profile)
        var privacy = suite.privacy(before.tree, profile: before.profile, when: "before recovery", into: &details)
        let first: Result<RecoveryOutcome, any Error> = Result { try StoreRecoveryRunner.recover(on: POSIXFileSystem(), profile: profile) }
        let after = DiskLoader.load(profile)
        let assessment = suite.assess(after.tree, profile: after.profile)
        privacy |= suite.privacy(after.tree, profile: after.profile, scan: assessment.scan, when: "after recovery", into: &details)
        var second: Result<RecoveryOutcome, any Error>?
        if case .success = first {
            second = Result { try StoreRecoveryRunner.recover(on: POSIXFileSystem(), profile: profile) }
        }
        let verdict = StateVerdict(
            findings: assessment.findings + RecoveryOracle.check(first: first, second: second),
            floor: assessment.floor, privacyFound: privacy, privacyDetails: details,
            detectedCrash: (try? first.get())?.detectedCrash, recoveryCrashes: [])
        return (verdict.findings(in: context), before.tree.hash)
    }
}
