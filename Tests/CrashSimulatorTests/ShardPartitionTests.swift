@_spi(CrashTesting) import SessionStore
import TestSupport
import Testing

@_spi(CrashTesting) @testable import CrashSimulator

/// `--shard K/N` partitions a run: the explored and failed counts of shards 1..N, and the sets of
/// their failure reproducers, add up exactly to the whole run's (recovery crash states included).
@Suite(.exhaustive) struct ShardPartitionTests {
    init() { Browsers.install() }

    static let cases: [RunCase] =
        [PersistenceModel.process, .pessimistic].flatMap { model in
            [WriteProtocol.safe, .inPlace, .chrome, .noFsync].map { RunCase(workload: "small", model: model, writeProtocol: $0) }
        } + [
            RunCase(workload: "incognito", model: .process, writeProtocol: .noFsync),
            RunCase(workload: "crash-loop", model: .pessimistic, writeProtocol: .safe)
        ]

    /// What a run found, in the terms that must add up.
    struct Totals: Equatable, CustomStringConvertible {
        var explored = 0
        var failed = 0
        var reproducers: [String] = []
        var description: String { "explored \(explored), failed \(failed), \(reproducers.count) reproducers" }
    }

    static func totals(_ recording: Recording, _ entry: RunCase, shard: (Int, Int)) -> Totals {
        let options = ExplorationOptions(model: entry.model, shard: shard, keptFailures: Int.max)
        let result = Explorer(recording: recording, runner: StoreRecoveryRunner(), options: options).run()
        let report = CrashTest.Report(
            configuration: configuration(entry), operations: recording.operations.count,
            acknowledgements: recording.acknowledgements.count, result: result)
        return Totals(explored: result.explored, failed: result.failed, reproducers: result.failures.map { report.reproducer($0).text })
    }

    static func configuration(_ entry: RunCase) -> CrashTest.Configuration {
        var configuration = CrashTest.Configuration()
        configuration.workload = entry.workload
        configuration.model = entry.model
        configuration.writeProtocol = entry.writeProtocol
        return configuration
    }

    @Test(arguments: cases)
    func shardsAddUpToTheWholeRun(_ entry: RunCase) throws {
        let recording = try CrashTest(configuration: Self.configuration(entry)).record()
        let whole = Self.totals(recording, entry, shard: (1, 1))
        #expect(whole.failed == whole.reproducers.count, "every failing state is listed")
        for count in [2, 3, 7] {
            var sum = Totals()
            for index in 1...count {
                let part = Self.totals(recording, entry, shard: (index, count))
                sum.explored += part.explored
                sum.failed += part.failed
                sum.reproducers += part.reproducers
            }
            #expect(sum.explored == whole.explored, "\(entry) in \(count) shards: \(sum) vs \(whole)")
            #expect(sum.failed == whole.failed, "\(entry) in \(count) shards")
            #expect(
                Set(sum.reproducers) == Set(whole.reproducers) && sum.reproducers.count == whole.reproducers.count,
                "\(entry) in \(count) shards")
        }
    }

    @Test func everyShardOfSevenHasWorkOnTheDefaultWorkloadsPartitions() throws {
        let recording = try CrashTest(
            configuration: Self.configuration(RunCase(workload: "small", model: .pessimistic, writeProtocol: .safe))
        ).record()
        let options = ExplorationOptions(model: .pessimistic, shard: (7, 7))
        #expect(Explorer(recording: recording, runner: StoreRecoveryRunner(), options: options).run().explored > 0)
    }
}
