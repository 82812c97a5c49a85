import FileSystemKit
import SessionStore
import TestSupport
import Testing

@testable import CrashSimulator

/// The caches a judge keeps across states (recovery memos, what recovery left, second runs, path
/// index) never change a verdict: a judge that has seen many states judges each state as a judge
/// that sees it first does.
@Suite(.exhaustive) struct JudgeCachesTests {
    init() { Browsers.install() }

    /// What a verdict says about its own state, in comparable form. Where several parts tie (the
    /// oldest part of the floor, the first file holding an incognito string), which one a message
    /// names depends on the order of a directory's entries in memory, so only what is decided is
    /// compared there: the version, the groups found.
    private func summary(_ verdict: StateVerdict) -> [String] {
        verdict.findings.map { "\($0.oracle): \($0.message)" }.sorted()
            + [
                "floor \(verdict.floor.version)", "privacy \(verdict.privacyFound)",
                "details \(verdict.privacyDetails.keys.sorted())", "detected \(String(describing: verdict.detectedCrash))"
            ]
    }

    @Test(arguments: [("incognito", PersistenceModel.pessimistic), ("crash-loop", .process), ("small", .pessimistic)])
    func aWarmJudgeGivesTheVerdictsOfAFreshOne(workload: String, model: PersistenceModel) throws {
        let recording = try WorkloadRecorder().record(try #require(try BuiltInWorkloads.workload(workload)))
        let generator = CrashStateGenerator(model: model, seed: 1)
        let tree = ModelTree(snapshot: recording.initial, names: recording.names)
        let warm = StateJudge(recording: recording, runner: StoreRecoveryRunner(), caches: JudgeCaches(recording: recording))
        let materialiser = Materialiser(recording: recording, seed: 1)
        var compared = 0
        var children = 0
        var mismatches: [String] = []
        var number = 0
        Explorer.walk(
            recording, generator, through: recording.operations.count,
            apply: { index in
                tree.apply(recording.operations[index].effect, index: Int32(index))
            }
        ) { _, point in
            tree.isJournaling = true
            defer { tree.isJournaling = false }
            for state in point.states {
                number += 1
                let mark = tree.mark()
                materialiser.materialise(state, pending: point.pending, on: tree)
                let cached = warm.verdict(tree)
                if number % 5 == 0 {
                    let fresh = StateJudge(recording: recording, runner: StoreRecoveryRunner()).verdict(tree)
                    compared += 1
                    if summary(cached) != summary(fresh) { mismatches.append("\(state): \(summary(cached)) vs \(summary(fresh))") }
                    for (crash, child) in cached.recoveryCrashes {
                        guard let other = fresh.recoveryCrashes.first(where: { $0.state.steps == crash.steps && $0.state.cut == crash.cut })
                        else {
                            mismatches.append("\(state): recovery crash \(crash.steps) missing from the fresh judge")
                            continue
                        }
                        children += 1
                        if summary(child) != summary(other.verdict) {
                            mismatches.append("\(state) crash \(crash.steps): \(summary(child)) vs \(summary(other.verdict))")
                        }
                    }
                }
                tree.rollback(to: mark)
            }
            return true
        }
        #expect(compared > 20)
        #expect(mismatches.isEmpty, "\(mismatches.prefix(3))")
    }

    /// The privacy groups found from what is remembered of each directory's content are those a
    /// scan of every file finds, on every crash state of a workload that closes incognito tabs;
    /// only the groups asked to be detailed are, and each as a scan details it.
    @Test func privacyFoundByContentIsWhatAScanFinds() throws {
        let recording = try WorkloadRecorder().record(try #require(try BuiltInWorkloads.workload("incognito")))
        let tree = ModelTree(snapshot: recording.initial, names: recording.names)
        let byContent = OracleSuite(recording: recording)
        let scanning = OracleSuite(recording: recording)
        var states = 0
        var leaking = 0
        var mismatches: [String] = []
        Explorer.walk(
            recording, CrashStateGenerator(model: .pessimistic, seed: 1), through: recording.operations.count,
            apply: { index in
                tree.apply(recording.operations[index].effect, index: Int32(index))
            }
        ) { _, point in
            tree.isJournaling = true
            defer { tree.isJournaling = false }
            let materialiser = Materialiser(recording: recording, seed: 1)
            for state in point.states {
                let mark = tree.mark()
                materialiser.materialise(state, pending: point.pending, on: tree)
                let profile = ModelFileSystem(tree: tree).resolve(recording.profile)
                var scanned: [Int: String] = [:]
                var none: [Int: String] = [:]
                var first: [Int: String] = [:]
                let found = scanning.privacy(tree, profile: profile, when: "w", into: &scanned)
                let quick = byContent.privacy(tree, profile: profile, byContent: true, detailing: 0, when: "w", into: &none)
                let detailed = byContent.privacy(tree, profile: profile, byContent: true, detailing: 1, when: "w", into: &first)
                states += 1
                if found != 0 { leaking += 1 }
                if found != quick || found != detailed || !none.isEmpty || first != scanned.filter({ $0.key == 0 }) {
                    mismatches.append("\(state): \(found) \(quick) \(detailed) \(scanned) \(first)")
                }
                tree.rollback(to: mark)
            }
            return true
        }
        #expect(states > 100 && leaking > 10)
        #expect(mismatches.isEmpty, "\(mismatches.prefix(3))")
    }
}
