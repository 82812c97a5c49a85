@_spi(CrashTesting) import CrashSimulator
@_spi(CrashTesting) import SessionStore
import TestSupport
import Testing

/// Whole explorations of small workloads: the store's protocol passes under both models, the flawed
/// ones fail where they must, and a failure replays from its reproducer.
@Suite(.exhaustive) struct ExplorationTests {
    init() { Browsers.install() }

    private func run(_ workload: String, _ model: PersistenceModel, _ writeProtocol: WriteProtocol) throws -> CrashTest.Report {
        try RunCase(workload: workload, model: model, writeProtocol: writeProtocol).run()
    }

    @Test(arguments: [PersistenceModel.process, .pessimistic])
    func theSafeProtocolHasNoFailingState(model: PersistenceModel) throws {
        let report = try run("small", model, .safe)
        #expect(report.result.failed == 0, "\(report.result.failures.map(\.message))")
        #expect(report.result.unique > 100)
        #expect(report.result.explored >= report.result.unique)
        #expect(report.acknowledgements == 2)
    }

    @Test func inPlaceFailsAtomicityEvenWhenOnlyTheProcessDies() throws {
        let report = try run("small", .process, .inPlace)
        #expect(report.result.failuresByOracle[.atomicity, default: 0] > 0)
        let failure = try #require(report.result.failures.first { $0.oracle == .atomicity })
        let replayed = try Replayer().replay(report.reproducer(failure))
        #expect(replayed.findings.contains { $0.oracle == .atomicity && $0.message == failure.message })
    }

    @Test(arguments: [WriteProtocol.noFsync, .foundationAtomic])
    func unsyncedProtocolsPassUnderProcessButFailUnderPessimistic(writeProtocol: WriteProtocol) throws {
        #expect(try run("small", .process, writeProtocol).result.failed == 0)
        let pessimistic = try run("small", .pessimistic, writeProtocol)
        #expect(pessimistic.result.failuresByOracle[.durability, default: 0] > 0)
    }

    @Test func chromesOrderLosesClosedTabsEvenWhenOnlyTheProcessDies() throws {
        let report = try run("small", .process, .chrome)
        #expect(report.result.failuresByOracle[.collateralLoss, default: 0] > 0)
    }

    @Test func shardsSplitTheExplorationWithoutOverlap() throws {
        let recording = try WorkloadRecorder().record(try #require(try BuiltInWorkloads.workload("small")))
        var generated: [Int] = []
        for index in 1...3 {
            let options = ExplorationOptions(model: .pessimistic, shard: (index, 3))
            let result = Explorer(recording: recording, runner: StoreRecoveryRunner(), options: options).run()
            generated.append(result.explored - result.recoveryCrashStates)
        }
        let whole = Explorer(recording: recording, runner: StoreRecoveryRunner(), options: ExplorationOptions(model: .pessimistic)).run()
        #expect(generated.allSatisfy { $0 > 0 })
        #expect(generated.reduce(0, +) == whole.explored - whole.recoveryCrashStates)
    }

    @Test func resultsDoNotDependOnTheThreadCount() throws {
        let recording = try WorkloadRecorder().record(try #require(try BuiltInWorkloads.workload("small")))
        let one = Explorer(
            recording: recording, runner: StoreRecoveryRunner(), options: ExplorationOptions(model: .pessimistic, threads: 1)
        ).run()
        let two = Explorer(
            recording: recording, runner: StoreRecoveryRunner(), options: ExplorationOptions(model: .pessimistic, threads: 2)
        ).run()
        #expect(one.explored == two.explored)
        #expect(one.unique == two.unique)
    }
}
