@_spi(CrashTesting) import CrashSimulator
@_spi(CrashTesting) import SessionStore
import TestSupport
import Testing

/// The checker catches these: each flawed write protocol planted in the store makes crash-test
/// fail on a built-in workload, with a reproducer that replays to the same failure.
@Suite(.exhaustive) struct CheckerCatchesTests {
    init() { Browsers.install() }

    /// A protocol, the oracle that must catch it, and the model it is caught under.
    struct Planted: Sendable, CustomStringConvertible {
        var writeProtocol: WriteProtocol
        var oracle: OracleKind
        var model: PersistenceModel
        var workload = "small"
        /// A gallery profile the workload starts from (nil: an empty profile).
        var from: String?
        var description: String {
            "\(writeProtocol.rawValue) caught by \(oracle.rawValue) (\(model.rawValue), \(workload)\(from.map { " from \($0)" } ?? ""))"
        }
    }

    static let planted = [
        Planted(writeProtocol: .inPlace, oracle: .atomicity, model: .process),
        Planted(writeProtocol: .noFsync, oracle: .durability, model: .pessimistic),
        Planted(writeProtocol: .chrome, oracle: .collateralLoss, model: .process),
        // Temporary files named unlike the store's: found by the layout, not by the store's names.
        Planted(writeProtocol: .strangeTemporaryNames, oracle: .hygiene, model: .process),
        // The clean-exit marker before the final save: a crash between them must still be noticed.
        Planted(writeProtocol: .exitMarkerFirst, oracle: .recovery, model: .process, workload: "typical"),
        // No wipe when the last incognito tab closes: privacy is armed by the workload's close,
        // not by the store's report that it purged.
        Planted(writeProtocol: .noIncognitoWipe, oracle: .privacy, model: .process, workload: "incognito"),
        // Save policy as a contract, judged by the workload's own model of its tabs: a background
        // that leaves a delayed save pending, a save acknowledged before it is committed.
        Planted(writeProtocol: .lazyBackground, oracle: .durability, model: .process, workload: "typical"),
        Planted(writeProtocol: .earlyAcknowledgement, oracle: .durability, model: .process),
        // A delayed save put off by every change: late past the 2.5 s of the first one.
        Planted(writeProtocol: .debouncedSave, oracle: .durability, model: .process, workload: "typical"),
        // A set-aside copy never fsynced before the live session is removed: lost with the power.
        Planted(writeProtocol: .unsyncedSetAside, oracle: .durability, model: .pessimistic, workload: "crash-loop"),
        // A session Chrome's rules shorten, restored with no copy kept: what Chrome drops is lost.
        Planted(writeProtocol: .noKeptCopy, oracle: .collateralLoss, model: .process, from: "tab-no-history"),
        Planted(writeProtocol: .noKeptCopy, oracle: .collateralLoss, model: .process, from: "tab-data-missing"),
        // The launch marks its restore only once it has cleaned up and set aside: a crash in
        // between (after it removed a leftover temporary file) is not counted by the next launch.
        Planted(writeProtocol: .uncountedLaunchCrash, oracle: .crashLoopCount, model: .process),
        // The copy of a shortened session made as a set-aside: whole in Backups/, gone from the
        // live profile, so its window no longer opens.
        Planted(writeProtocol: .dropsBackedUpSession, oracle: .liveSessions, model: .process, from: "tab-no-history"),
        // The same from the built-in workloads' own damaged profiles, with no --from.
        Planted(writeProtocol: .noKeptCopy, oracle: .collateralLoss, model: .process, workload: "shortened-sessions"),
        Planted(writeProtocol: .dropsBackedUpSession, oracle: .liveSessions, model: .process, workload: "shortened-sessions"),
        Planted(writeProtocol: .uncountedLaunchCrash, oracle: .crashLoopCount, model: .process, workload: "refused-sessions"),
        // The launch records the app as running before it sets aside the refused sessions: a
        // crash in that set-aside is taken for a running app's, never counted by the guard.
        Planted(writeProtocol: .earlyRunningMark, oracle: .crashLoopCount, model: .process, workload: "refused-sessions"),
        Planted(writeProtocol: .earlyRunningMark, oracle: .crashLoopCount, model: .pessimistic, workload: "refused-sessions"),
        Planted(writeProtocol: .earlyRunningMark, oracle: .crashLoopCount, model: .process, workload: "restore-crashes"),
        // A sweep removing every `.sessionctl-` name takes an interrupted repair's intent record
        // and staged copy before the launch settles them: the windows it was replacing stay in
        // Backups/, out of the live profile.
        Planted(writeProtocol: .broadSweep, oracle: .liveSessions, model: .process, workload: "interrupted-repair"),
        Planted(writeProtocol: .broadSweep, oracle: .liveSessions, model: .pessimistic, workload: "interrupted-repair")
    ]

    /// The store keeps every save promise on every built-in workload: nothing found broken while recording.
    @Test(arguments: BuiltInWorkloads.names)
    func theStoreKeepsEverySavePromise(_ workload: String) throws {
        var configuration = CrashTest.Configuration()
        configuration.workload = workload
        let recording = try CrashTest(configuration: configuration).record()
        #expect(recording.contract.isEmpty, "\(recording.contract.values.flatMap { $0 }.map(\.message))")
    }

    @Test(arguments: planted)
    func eachPlantedFlawIsCaughtAndReplays(_ entry: Planted) throws {
        var configuration = CrashTest.Configuration()
        configuration.workload = entry.workload
        configuration.model = entry.model
        configuration.writeProtocol = entry.writeProtocol
        configuration.startingProfile = entry.from.map(CommandCrashTestTests.gallery)
        let report = try CrashTest(configuration: configuration).run()
        #expect(report.result.failuresByOracle[entry.oracle, default: 0] > 0, "\(entry): \(report.result.failuresByOracle)")
        let failure = try #require(report.result.failures.first { $0.oracle == entry.oracle })
        let replayed = try Replayer().replay(report.reproducer(failure))
        #expect(replayed.findings.contains { $0.oracle == entry.oracle }, "\(entry): the reproducer replays")
    }
}
