import SessionStore
import TestSupport
import Testing

@testable import CrashSimulator

/// A recovery resumed from a remembered second stage ends exactly as the store's own run does.
@Suite struct RecoveryTailsTests {
    init() { Browsers.install() }

    /// The digest of a launch's first stage names every field of its report: a field added to
    /// `LaunchReport` must be added to `StoreRecoveryRunner.digest` too, or two launches that
    /// differ in it would share a second stage.
    @Test func theDigestCoversEveryFieldOfTheReport() {
        let fields = Set(Mirror(reflecting: LaunchReport()).children.compactMap(\.label))
        #expect(
            fields == [
                "previousExit", "consecutiveRestoreCrashes", "crashLoopGuardTriggered", "restored", "setAside",
                "completedManifests", "removedTemporaryFiles", "settledCommands"
            ])
    }

    /// Every crash state of a set-aside of eight tabs, recovered by the store and by a judge that
    /// resumes recoveries: the same trees after recovery, the same operations, the same outcomes.
    /// With trees removed and copied at once the trees are the same too (the same inodes), and
    /// the operations those of the store's run at once.
    @Test(arguments: [false, true])
    func aResumedRecoveryLeavesWhatTheStoresRunLeaves(collapsing: Bool) throws {
        let recording = try WorkloadRecorder().record(
            WorkloadParser.parse(VerdictStabilityTests.setAside(tabs: 8), name: "8-tabs"))
        let runner = StoreRecoveryRunner()
        let tree = ModelTree(snapshot: recording.initial, names: recording.names)
        let tails = RecoveryTails()
        var resumed = 0
        var copiedAtOnce = false
        for (index, operation) in recording.operations.enumerated() {
            tree.apply(operation.effect, index: Int32(index))
            tree.isJournaling = true
            let mark = tree.mark()
            let base = recording.inodeCount + 10_000
            func run(resuming: Bool) -> (hash: UInt64, operations: [String], outcome: String) {
                let system = ModelFileSystem(
                    tree: tree, firstInode: base, operationBase: 1_000_000, tracksExactContent: false, temporaryTag: "r")
                system.collapsesTrees = collapsing && resuming
                let outcome: Result<RecoveryOutcome, any Error>
                if resuming {
                    let run = tails.recover(runner, on: system, profile: recording.profile, tag: "r")
                    outcome = run.outcome
                    if let tail = run.resumed {
                        system.replay(tail.operations, after: tail.after)
                        #expect(tree.hash == tail.finalHash)
                    }
                } else {
                    outcome = Result { try runner.recover(fileSystem: system, profile: recording.profile) }
                }
                if system.operations.contains(where: { if case .linkTree = $0.effect { true } else { false } }) { copiedAtOnce = true }
                let result = (tree.hash, system.operations.map(\.summary), "\(outcome.map(\.changes))")
                tree.rollback(to: mark)
                return result
            }
            let before = tails.resumed
            let plain = run(resuming: false)
            let first = run(resuming: true)
            let second = run(resuming: true)
            resumed += tails.resumed - before
            if collapsing {
                #expect(first.hash == plain.hash && second.hash == plain.hash && first.outcome == plain.outcome, "after operation \(index)")
                #expect(second == first, "after operation \(index)")
            } else {
                #expect(first == plain && second == plain, "after operation \(index)")
            }
            tree.isJournaling = false
        }
        #expect(resumed > 0)
        #expect(!collapsing || copiedAtOnce, "the set-aside's copy was made at once")
    }
}
