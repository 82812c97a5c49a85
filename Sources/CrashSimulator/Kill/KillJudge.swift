import FileSystemKit
@_spi(CrashTesting) import SessionStore

/// Judges what a killed child left on disk: recovery runs on the real directory (twice, for
/// idempotence), and the simulator's oracles look at the directory before and after (set-aside
/// and live sessions included; the crash accounting, which needs to know where inside recovery a
/// crash came, is judged on simulated states only).
struct KillJudge {
    var suite: OracleSuite
    /// The protocol the store recovers with: the one the killed child wrote with.
    let writeProtocol: WriteProtocol

    init(recording: Recording, writeProtocol: WriteProtocol) {
        suite = OracleSuite(recording: recording)
        self.writeProtocol = writeProtocol
    }

    /// The findings on the directory `profile` (which recovery changes), given what the child had
    /// acknowledged; and a hash of the state as the child left it.
    mutating func judge(profile: String, context: CrashContext) -> (findings: [Finding], hash: UInt64) {
        var details: [Int: String] = [:]
        let before = DiskLoader.load(profile)
        var privacy = suite.privacy(before.tree, profile: before.profile, when: "before recovery", into: &details)
        // Read file by file (no content hashes: the two trees are loaded apart).
        let sessionsBefore = SetAsideOracle.before(before.tree, profile: WorkloadRecorder.profile, hashing: false)
        let first: Result<RecoveryOutcome, any Error> = Result {
            try StoreRecoveryRunner.recover(on: POSIXFileSystem(), profile: profile, writeProtocol: writeProtocol)
        }
        let after = DiskLoader.load(profile)
        let assessment = suite.assess(after.tree, profile: after.profile)
        let setAside = SetAsideOracle.capture(
            after.tree, profile: WorkloadRecorder.profile, outcome: try? first.get(), before: sessionsBefore,
            verifies: { TabCensus.manifestVerifies($0, entry: $1) })
        var findings = assessment.findings
        findings += SetAsideOracle.check(setAside, before: before.tree, profile: WorkloadRecorder.profile)
        findings += LiveSessionOracle.check(
            delisted: setAside.delisted, unsettled: setAside.unsettled, before: before.tree, profile: WorkloadRecorder.profile)
        privacy |= suite.privacy(after.tree, profile: after.profile, scan: assessment.scan, when: "after recovery", into: &details)
        var second: Result<RecoveryOutcome, any Error>?
        if case .success = first {
            second = Result { try StoreRecoveryRunner.recover(on: POSIXFileSystem(), profile: profile, writeProtocol: writeProtocol) }
        }
        let verdict = StateVerdict(
            findings: findings + RecoveryOracle.check(first: first, second: second),
            floor: assessment.floor, privacyFound: privacy, privacyDetails: details,
            detectedCrash: (try? first.get())?.detectedCrash, recoveryCrashes: [])
        return (verdict.findings(in: context), before.tree.hash)
    }
}
