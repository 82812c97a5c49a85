import TestSupport
import Testing

@testable import CrashSimulator

/// Crash points of recovery: every one by default, however long the recovery; on request, a
/// seeded sample covering both ends and every kind of step.
@Suite(.exhaustive) struct RecoveryCrashPointsTests {
    init() { Browsers.install() }

    private func operation(_ kind: FileOperation.Kind, _ path: String, _ effect: Effect) -> FileOperation {
        FileOperation(kind: kind, path: path, destination: nil, size: 0, effect: effect, context: "", site: .none)
    }

    /// A set-aside of `tabs` tab directories, as recovery makes it: a directory and a link per
    /// tab, each directory fsynced, then a manifest written.
    private func setAside(tabs: Int) -> [FileOperation] {
        var steps = [operation(.mkdir, "/p/Backups/s/t", .addEntry(directory: 1, name: 1, inode: 2, isDirectory: true))]
        for tab in 0..<tabs {
            let directory = Int32(10 + 2 * tab)
            steps.append(
                operation(.mkdir, "/p/Backups/s/t/\(tab)", .addEntry(directory: 2, name: directory, inode: directory, isDirectory: true)))
            steps.append(
                operation(
                    .link, "/p/Backups/s/t/\(tab)/data.pb",
                    .addEntry(directory: directory, name: 3, inode: directory + 1, isDirectory: false)))
            steps.append(operation(.fsyncDirectory, "/p/Backups/s/t/\(tab)", .fsyncDirectory(directory: directory)))
        }
        let blob = Blob(Array(repeating: 7, count: 100))
        steps.append(operation(.create, "/p/Backups/s/t/m", .addEntry(directory: 2, name: 4, inode: 5, isDirectory: false)))
        steps.append(operation(.write, "/p/Backups/s/t/m", .write(inode: 5, offset: 0, bytes: blob.bytes, previous: -1, result: blob)))
        steps.append(operation(.fsync, "/p/Backups/s/t/m", .fsyncFile(inode: 5)))
        return steps
    }

    @Test func aShortRecoveryIsCrashedEverywhere() {
        let steps = setAside(tabs: 10)
        let all = RecoveryCrashPoints.all(steps)
        // After every step but the fsyncs and the last, and three cuts of the write.
        #expect(all.count == 1 + 20 + 1 + 3 + 1)
        #expect(all.contains(RecoveryCrashPoints.Point(steps: steps.count - 2, cut: 1)))
        let chosen = RecoveryCrashPoints.chosen(steps, seed: 1)
        #expect(chosen.points == all && chosen.total == all.count)
    }

    @Test func aLongRecoveryIsCrashedEverywhereUnlessASampleIsAsked() {
        let steps = setAside(tabs: 1000)
        let all = RecoveryCrashPoints.all(steps)
        let every = RecoveryCrashPoints.chosen(steps, seed: 1)
        #expect(every.points == all && every.total == all.count && all.count > 2000)
        let small = RecoveryCrashPoints.chosen(steps, seed: 1, limit: 1)
        #expect(small.points.count == RecoveryCrashPoints.smallestSample, "a sample never drops the points at both ends")
    }

    @Test func aSampleCoversBothEndsAndEveryKindOfStep() {
        let steps = setAside(tabs: 1000)
        let all = RecoveryCrashPoints.all(steps)
        let chosen = RecoveryCrashPoints.chosen(steps, seed: 1, limit: 512)
        #expect(chosen.total == all.count && all.count > 2000)
        #expect(chosen.points.count == 512)
        #expect(Set(chosen.points).isSubset(of: Set(all)))
        #expect(chosen.points == chosen.points.sorted { ($0.steps, $0.cut ?? -1) < ($1.steps, $1.cut ?? -1) })
        #expect(Array(chosen.points.prefix(RecoveryCrashPoints.edge)) == Array(all.prefix(RecoveryCrashPoints.edge)))
        #expect(Array(chosen.points.suffix(RecoveryCrashPoints.edge)) == Array(all.suffix(RecoveryCrashPoints.edge)))
        let cuts = chosen.points.filter { $0.cut != nil }
        #expect(cuts.count == 3, "the manifest's write is cut (it is among the last points)")
        #expect(chosen.points.contains { $0.cut == nil && steps[$0.steps - 1].kind == .link })
        #expect(chosen.points.contains { $0.cut == nil && steps[$0.steps - 1].kind == .mkdir })
        #expect(RecoveryCrashPoints.chosen(steps, seed: 1, limit: 512).points == chosen.points, "the sample depends only on the seed")
        #expect(RecoveryCrashPoints.chosen(steps, seed: 2, limit: 512).points != chosen.points)
    }

    @Test func theDefaultRunCrashesEveryRecoveryEverywhere() throws {
        let report = try CrashTest(configuration: CrashTest.Configuration()).run()
        #expect(report.result.sampledRecoveries == 0 && report.result.unexploredRecoveryCrashes == 0)
        #expect(report.result.recoveryCrashStates > 1000)
    }
}
