import CrashSimulator
import Foundation
import Testing

@Suite struct ExplorationTests {
    @Test func smallWorkloadUnderProcessModelHasNoFailures() throws {
        let workload = try #require(try BuiltInWorkloads.workload("small"))
        let recording = try WorkloadRecorder().record(workload)
        let explorer = Explorer(recording: recording, runner: StoreRecoveryRunner(), options: ExplorationOptions(model: .process))
        let result = explorer.run()
        print("process: ops \(recording.operations.count) acks \(recording.acknowledgements.count) explored \(result.explored) unique \(result.unique) failed \(result.failed) \(result.elapsedSeconds)s")
        for failure in result.failures.prefix(5) { print(failure.oracle, failure.crashAfter, failure.state.text, failure.message) }
        #expect(result.failed == 0)
        #expect(result.unique > 10)
    }

    @Test func smallWorkloadUnderPessimisticModel() throws {
        let workload = try #require(try BuiltInWorkloads.workload("small"))
        let recording = try WorkloadRecorder().record(workload)
        let explorer = Explorer(recording: recording, runner: StoreRecoveryRunner(), options: ExplorationOptions(model: .pessimistic))
        let result = explorer.run()
        print("pessimistic: ops \(recording.operations.count) explored \(result.explored) unique \(result.unique) failed \(result.failed) \(result.elapsedSeconds)s \(result.failuresByOracle)")
        for failure in result.failures.prefix(8) { print(failure.oracle, failure.crashAfter, failure.state.text, failure.message) }
    }
}
