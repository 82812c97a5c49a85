@_spi(CrashTesting) import SessionStore
import TestSupport
import Testing

@_spi(CrashTesting) @testable import CrashSimulator

/// Recoveries that make thousands of directories (setting aside a session of thousands of tabs).
@Suite struct LargeRecoveryTests {
    init() { Browsers.install() }

    /// The judge runs recovery a second time on what the first run left, and crashes it at its
    /// steps; each later run numbers its new inodes past the first run's. They once started 5,000
    /// past it: a recovery making more directories than that had its second run reuse the first's
    /// inodes and fail (ENOTDIR), a failure of the checker, not of the store (seen on 10000-tabs).
    @Test func aSecondRecoveryAfterOneOfThousandsOfDirectoriesRunsCleanly() throws {
        let text = "launch\nrepeat 6000 open t{i} https://example.org/{i} \"Page {i}\"\nwait\n"
        let workload = try WorkloadParser.parse(text, name: "6000-tabs")
        let recording = try WorkloadRecorder().record(workload)
        // Late in the first save: the list is on disk, the last tabs' files are not, so recovery
        // sets the session aside, making a directory for each of the 5,900 tabs or so written.
        let state = CrashState(crashPoint: recording.operations.count * 98 / 100)
        let reproducer = Reproducer(workload: "6000-tabs", model: .pessimistic, writeProtocol: .safe, seed: 1, state: state)
        let (tree, _) = try Replayer().materialise(reproducer, recording: recording)
        let judge = StateJudge(recording: recording, runner: StoreRecoveryRunner(writeProtocol: .safe))
        judge.recoveryCrashParents = 0
        let verdict = judge.verdict(tree)
        let context = CrashContext(recording: recording, crashPoint: state.crashPoint)
        #expect(verdict.detectedCrash == true)
        #expect(verdict.findings(in: context).isEmpty, "\(verdict.findings(in: context).map(\.message).prefix(3))")
    }
}
