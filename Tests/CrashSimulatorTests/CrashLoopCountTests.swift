import FileSystemKit
import SessionFormats
import SessionModel
@_spi(CrashTesting) import SessionStore
import TestSupport
import Testing

@_spi(CrashTesting) @testable import CrashSimulator

/// The crash-loop count oracle: the store's rule restated from the marker alone, and where a
/// launch's restore starts and ends among its operations, found in the store's own launch.
@Suite struct CrashLoopCountTests {
    init() { Browsers.install() }

    @Test func theRuleCountsFromTheMarkerALaunchFinds() {
        typealias Account = RestoreCrashAccount
        #expect(Account.expected(finding: nil) == Account(previousExit: .unknown, consecutive: 0, guardTriggered: false))
        #expect(
            Account.expected(finding: RecoveryMarker(state: .running))
                == Account(previousExit: .unclean, consecutive: 0, guardTriggered: false))
        #expect(
            Account.expected(finding: RecoveryMarker(state: .restoring, restoreCrashes: 1), limit: 2)
                == Account(previousExit: .crashDuringRestore, consecutive: 2, guardTriggered: true))
        // A crash in a launch that found a running app's marker is the first crash during restore.
        #expect(
            Account.afterCrash(inLaunchFinding: RecoveryMarker(state: .running), limit: 2)
                == Account(previousExit: .crashDuringRestore, consecutive: 1, guardTriggered: false))
        #expect(
            Account.afterCrash(inLaunchFinding: RecoveryMarker(state: .restoring, restoreCrashes: 0), limit: 2)
                == Account(previousExit: .crashDuringRestore, consecutive: 2, guardTriggered: true))
        // The guard triggered in the interrupted launch, which started the count again.
        #expect(
            Account.afterCrash(inLaunchFinding: RecoveryMarker(state: .restoring, restoreCrashes: 1), limit: 2)
                == Account(previousExit: .crashDuringRestore, consecutive: 1, guardTriggered: false))
    }

    /// The operations of a launch on a profile holding one session and a leftover temporary file
    /// (which the launch removes), and the phase found in them.
    private func launch(_ writeProtocol: WriteProtocol) throws -> (steps: [FileOperation], phase: CrashLoopCountOracle.Phase) {
        let profile = OracleTests.profile
        let fixture = try OracleTests.Fixture(saving: [OracleTests.session([1, 2])])
        let system = fixture.system
        let leftover = joinPath(
            ProfileWriter.sessionDirectory(profile: profile, session: OracleTests.session([1])), ".sessionctl-tmp.x.1.1")
        try system.close(system.createExclusive(leftover, mode: 0o644))
        try RecoveryPolicy(writer: AtomicWriter(fileSystem: system), profile: profile).recordRunning()
        system.clearOperations()
        let outcome = try StoreRecoveryRunner.recover(on: system, profile: profile, writeProtocol: writeProtocol)
        #expect(outcome.account == RestoreCrashAccount(previousExit: .unclean, consecutive: 0, guardTriggered: false))
        return (system.operations, CrashLoopCountOracle.Phase(system.operations, profile: profile))
    }

    @Test func theStoresLaunchMarksItsRestoreBeforeAnythingElseAndEndsWithTheRunningMarker() throws {
        let marker = joinPath(OracleTests.profile, RecoveryMarker.fileName)
        let (steps, phase) = try launch(.safe)
        let work = try #require(phase.firstWork)
        let end = try #require(phase.lastMarkerWrite)
        #expect(steps[work].kind == .unlink && steps[work].path.contains("/.sessionctl-tmp.x."), "\(steps.map(\.summary))")
        let markerWrites = steps.indices.filter { CrashLoopCountOracle.Phase.writesMarker(steps[$0], marker: marker) }
        #expect(markerWrites.count == 2)
        #expect(markerWrites.first.map { $0 < work } == true, "the restore is marked before the leftover goes")
        #expect(markerWrites.last == end && end > work)
    }

    @Test func aLaunchThatMarksItsRestoreLateChangesTheProfileFirst() throws {
        let marker = joinPath(OracleTests.profile, RecoveryMarker.fileName)
        let (steps, phase) = try launch(.uncountedLaunchCrash)
        let work = try #require(phase.firstWork)
        let markerWrites = steps.indices.filter { CrashLoopCountOracle.Phase.writesMarker(steps[$0], marker: marker) }
        #expect(markerWrites.allSatisfy { $0 > work })
    }

    /// A crash state inside the restore that the next launch does not count fails; one it counts
    /// passes; after the running marker nothing may be counted.
    @Test func theOracleJudgesByWhereTheCrashCame() throws {
        let (steps, phase) = try launch(.safe)
        let work = try #require(phase.firstWork)
        let end = try #require(phase.lastMarkerWrite)
        let found = RecoveryMarker(state: .running)
        let inside = StateVerdict.RecoveryCrash(steps: work + 1, cut: nil)
        let uncounted = RestoreCrashAccount(previousExit: .unclean, consecutive: 0, guardTriggered: false)
        let counted = RestoreCrashAccount(previousExit: .crashDuringRestore, consecutive: 1, guardTriggered: false)
        let finding = CrashLoopCountOracle.check(inside, steps: steps, phase: phase, found: found, next: uncounted)
        #expect(finding?.oracle == .crashLoopCount)
        #expect(finding?.message.contains("the crash-loop guard must count it") == true, "\(finding?.message ?? "")")
        #expect(CrashLoopCountOracle.check(inside, steps: steps, phase: phase, found: found, next: counted) == nil)
        let after = StateVerdict.RecoveryCrash(steps: end + 1, cut: nil)
        #expect(CrashLoopCountOracle.check(after, steps: steps, phase: phase, found: found, next: uncounted) == nil)
        #expect(CrashLoopCountOracle.check(after, steps: steps, phase: phase, found: found, next: counted) != nil)
        // Before the launch changed anything, either account is one the disk can give.
        let before = StateVerdict.RecoveryCrash(steps: 1, cut: nil)
        #expect(CrashLoopCountOracle.check(before, steps: steps, phase: phase, found: found, next: uncounted) == nil)
        #expect(CrashLoopCountOracle.check(before, steps: steps, phase: phase, found: found, next: counted) == nil)
    }
}
