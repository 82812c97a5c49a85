import FileSystemKit
import Foundation
@_spi(CrashTesting) import SessionStore
import TestSupport
import Testing

@_spi(CrashTesting) @testable import CrashSimulator

/// The kill loop's pieces that run in process: the plan, the operation counter, the on-disk judge.
@Suite struct KillLoopTests {
    init() { Browsers.install() }

    private func recording(_ name: String = "small", _ writeProtocol: WriteProtocol = .safe) throws -> Recording {
        try WorkloadRecorder(writeProtocol: writeProtocol).record(try #require(try BuiltInWorkloads.workload(name)))
    }

    @Test func thePlanHalvesKillsBetweenOperationsAndTimes() throws {
        let operations = try recording("typical").operations
        let plan = KillPlan(kills: 21, operations: operations, seed: 3)
        #expect(plan.kills.count == 21)
        let stops = plan.kills.compactMap { kill -> Int? in if case .operation(let stopAt) = kill { stopAt } else { nil } }
        #expect(stops.count == 11)
        #expect(stops == stops.sorted() && Set(stops).count == stops.count)
        #expect(stops.allSatisfy { [.write, .truncate, .rename, .link, .unlink, .rmdir].contains(operations[$0].kind) })
        #expect(stops.first! < operations.count / 4 && stops.last! > operations.count * 3 / 4, "spread over the whole workload")
        for kill in plan.kills { if case .time(let fraction) = kill { #expect(fraction > 0 && fraction < 1) } }
        #expect(KillPlan(kills: 21, operations: operations, seed: 3) == plan)
        #expect(KillPlan(kills: 21, operations: operations, seed: 4) != plan)
    }

    @Test func theChildCountsTheOperationsTheRecordingHas() throws {
        let expected = try recording().operations.count
        let directory = try TemporaryDirectoryForTests()
        defer { directory.remove() }
        let profile = joinPath(directory.path, "profile")
        try POSIXFileSystem().mkdir(profile, mode: 0o755)
        let fileSystem = KillSwitchFileSystem(stopAt: nil)
        let driver = WorkloadDriver(workloadName: "small", fileSystem: fileSystem, profile: profile, writeProtocol: .safe)
        for step in try #require(try BuiltInWorkloads.workload("small")).steps { try driver.perform(step.event) }
        #expect(fileSystem.performed == expected)
    }

    @Test func theOnDiskJudgeSeesWhatTheModelSees() throws {
        let recording = try recording()
        let directory = try TemporaryDirectoryForTests()
        defer { directory.remove() }
        let profile = joinPath(directory.path, "profile")
        try POSIXFileSystem().mkdir(profile, mode: 0o755)
        let driver = WorkloadDriver(workloadName: "small", fileSystem: POSIXFileSystem(), profile: profile, writeProtocol: .safe)
        for step in try #require(try BuiltInWorkloads.workload("small")).steps { try driver.perform(step.event) }
        var judge = KillJudge(recording: recording, writeProtocol: .safe)
        let context = CrashContext(recording: recording, acknowledged: recording.acknowledgements.count, running: true)
        #expect(judge.judge(profile: profile, context: context).findings.isEmpty, "the finished run is the last version")
        let metadata = joinPath(profile, "SessionStorage/{SyntheticIdentifier}/session_metadata.pb")
        try AtomicWriter().write(Array(try POSIXFileSystem().read(metadata).dropLast(9)), to: metadata)
        let findings = judge.judge(profile: profile, context: context).findings
        // Recovery sets the damaged session aside: the acknowledged list is nowhere any more.
        #expect(
            findings.contains { $0.oracle == .durability && $0.message.contains("set aside from an older or unknown list") }, "\(findings)")
    }
}

/// A scratch directory for tests that touch the real file system.
struct TemporaryDirectoryForTests {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "crash-simulator-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}
