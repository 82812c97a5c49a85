import SessionFormats
@_spi(CrashTesting) import SessionStore
import TestSupport
import Testing

@_spi(CrashTesting) @testable import CrashSimulator

/// The checker crashes recovery as it crashes the workload, and meets lost operations with torn
/// ones: planted flaws that only those states reveal fail crash-test under `pessimistic`, pass it
/// under `process`, and their reproducers replay.
@Suite(.exhaustive) struct PowerLossCatchesTests {
    init() { Browsers.install() }

    /// Runs `workload` with a planted protocol under `model`.
    static func run(_ writeProtocol: WriteProtocol, _ workload: String, _ model: PersistenceModel) throws -> CrashTest.Report {
        try RunCase(workload: workload, model: model, writeProtocol: writeProtocol).run()
    }

    /// A sweep that puts a file back from its backup and removes the backup with no fsync between:
    /// only a power loss inside recovery, losing the put-back and keeping the removal, shows it.
    @Test func aMissingFsyncInsideRecoveryIsCaught() throws {
        let report = try Self.run(.unsyncedSweep, "small", .pessimistic)
        let failure = try #require(report.result.failures.first { $0.state.recoveryKeep != nil }, "\(report.result.failuresByOracle)")
        #expect(report.result.failures.allSatisfy { $0.state.recoveryKeep != nil || $0.state.recoveryTear != nil })
        let replayed = try Replayer().replay(report.reproducer(failure))
        #expect(replayed.findings.contains { $0.oracle == failure.oracle })
        #expect(replayed.explanation.contains { $0.contains("(lost)") })
        #expect(try Self.run(.unsyncedSweep, "small", .process).result.failed == 0)
    }

    /// A backup link left unsynced before the rename it guards: neither losing the link alone nor
    /// tearing the rename alone loses the file; both together do.
    @Test func aLostOperationWithATornRenameIsCaught() throws {
        let report = try Self.run(.unsyncedBackup, "small", .pessimistic)
        let combined = report.result.failures.filter { failure in
            failure.state.recoveryCrash == nil && failure.state.selection != .all && failure.state.tear != nil
        }
        let failure = try #require(combined.first { $0.oracle == .durability }, "\(report.result.failuresByOracle)")
        let replayed = try Replayer().replay(report.reproducer(failure))
        #expect(replayed.findings.contains { $0.oracle == .durability })
        // The same state without the loss, or without the tear, passes.
        for variant in [
            CrashState(crashPoint: failure.state.crashPoint, selection: .all, tear: failure.state.tear),
            CrashState(crashPoint: failure.state.crashPoint, selection: failure.state.selection)
        ] {
            var reproducer = report.reproducer(failure)
            reproducer.state = variant
            #expect(try Replayer().replay(reproducer).findings.isEmpty, "\(variant.text)")
        }
    }

    /// The store's own protocol passes with recovery crashed under power loss, and the report
    /// counts those states.
    @Test func theStoreSurvivesPowerLossInsideRecovery() throws {
        let report = try Self.run(.safe, "small", .pessimistic)
        #expect(report.result.failed == 0, "\(report.result.failures.prefix(3).map { report.reproducer($0).text })")
        #expect(report.result.recoveryPowerLossStates > 0)
        #expect(report.result.recoveryPowerLossStates <= report.result.recoveryCrashStates)
        #expect(try Self.run(.safe, "small", .process).result.recoveryPowerLossStates == 0)
    }

    /// Crash points whose pending sets are sampled are counted with the states left out.
    @Test func sampledStatesAreCounted() throws {
        let report = try Self.run(.safe, "typical", .pessimistic)
        #expect(report.result.sampledCrashPoints > 0)
        #expect(report.result.statesLeftOut > 0)
        let document = CrashTestDocument.encode(CrashTestDocument.fields(report)).serialized()
        #expect(document.contains("\"sampled\""))
    }

    /// A torn operation meets every subset of a few other pending operations, and samples beyond.
    @Test func tearsMeetLosses() {
        let generator = CrashStateGenerator(model: .pessimistic, seed: 1)
        let few = generator.combinedLosses(at: 9, torn: 3, pending: [1, 2, 3])
        #expect(few.selections.count == 3)
        #expect(few.leftOut == 0)
        #expect(few.selections.allSatisfy { $0.keeps(3) })
        let many = generator.combinedLosses(at: 9, torn: 20, pending: Array(0...20))
        #expect(many.selections.allSatisfy { $0.keeps(20) })
        #expect(many.selections.contains(.only([20])))
        #expect(many.selections.contains(.allBut([19])))
        #expect(many.leftOut == Double((1 << 20) - 1 - many.selections.count))
    }
}
