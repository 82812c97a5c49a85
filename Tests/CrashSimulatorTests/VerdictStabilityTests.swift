@_spi(CrashTesting) import SessionStore
import TestSupport
import Testing

@_spi(CrashTesting) @testable import CrashSimulator

/// The judge's shortcuts change no verdict: with directories compared by content hash, manifests
/// remembered by it and recoveries finished from remembered second stages, a run fails on exactly the states (same reproducers, same oracles,
/// same messages) a run reading every file every time fails on; and crashing every point of
/// recovery finds every failure a sampled run finds.
@Suite(.exhaustive) struct VerdictStabilityTests {
    init() { Browsers.install() }

    /// A few runs, one failing, as a quick guard while developing: the full comparison, every
    /// planted protocol and the built-in workloads with every memo off, is `.ci/shortcuts`, a step
    /// of CI, on the built binary (`crash-test --no-shortcuts`).
    static let cases: [RunCase] = [
        RunCase(workload: "small", model: .pessimistic, writeProtocol: .safe),
        RunCase(workload: "small", model: .process, writeProtocol: .chrome),
        RunCase(workload: "crash-loop", model: .pessimistic, writeProtocol: .unsyncedSetAside)
    ]

    /// The failures of a run of a built-in workload (or of the workload `text`), as comparable
    /// lines, and its explored and failed counts.
    private func run(
        _ workload: String, _ writeProtocol: WriteProtocol, _ model: PersistenceModel, text: String? = nil,
        shortcuts: Bool = true, sample: Int? = nil
    ) throws -> (failures: [String], explored: Int, failed: Int, resumed: Int) {
        var options = ExplorationOptions(model: model, keptFailures: 1_000_000, recoveryCrashSample: sample)
        options.takesShortcuts = shortcuts
        let parsed = try text.map { try WorkloadParser.parse($0, name: workload) } ?? WorkloadSource.load(workload)
        let recording = try WorkloadRecorder(writeProtocol: writeProtocol).record(parsed)
        let result = Explorer(recording: recording, runner: StoreRecoveryRunner(writeProtocol: writeProtocol), options: options).run()
        let lines = result.failures.map { "\($0.state.text) \($0.findings.map { "\($0.oracle.rawValue): \($0.message)" })" }
        return (lines.sorted(), result.explored, result.failed, result.resumedRecoveries)
    }

    @Test(arguments: cases)
    func shortcutsByContentHashChangeNoVerdict(_ item: RunCase) throws {
        let fast = try run(item.workload, item.writeProtocol, item.model)
        let reference = try run(item.workload, item.writeProtocol, item.model, shortcuts: false)
        #expect(fast.explored == reference.explored)
        #expect(fast.failed == reference.failed)
        let onlyFast = fast.failures.filter { !reference.failures.contains($0) }
        let onlyReference = reference.failures.filter { !fast.failures.contains($0) }
        #expect(
            onlyFast.isEmpty && onlyReference.isEmpty,
            "failing with the shortcuts only: \(onlyFast.prefix(3)); without them only: \(onlyReference.prefix(3))")
    }

    @Test func theCasesIncludeFailingRuns() throws {
        let failing = try run("crash-loop", .unsyncedSetAside, .pessimistic)
        #expect(failing.failed > 0, "a planted set-aside flaw fails, so the comparisons above compare failures")
    }

    /// Thirty tabs set aside by the crash-loop guard: recoveries of more points than the smallest sample.
    static let thirtyTabs = setAside(tabs: 30)

    /// A window of `tabs` tabs set aside by the crash-loop guard, then a launch and a new tab.
    static func setAside(tabs: Int) -> String {
        """
        launch
        repeat \(tabs) open t{i} https://example.org/page/{i} "Page {i}"
        wait
        crash
        crash-during-restore
        crash-during-restore
        launch
        open u1 https://example.org/after "After"
        wait
        """
    }

    @Test func everyRecoveryCrashPointFindsWhatASampleFinds() throws {
        let text = VerdictStabilityTests.thirtyTabs
        let every = try run("30-tabs", .unsyncedSetAside, .pessimistic, text: text)
        let sampled = try run("30-tabs", .unsyncedSetAside, .pessimistic, text: text, sample: RecoveryCrashPoints.smallestSample)
        #expect(every.explored > sampled.explored, "the sample leaves points out")
        #expect(sampled.failed > 0)
        #expect(Set(sampled.failures).isSubset(of: Set(every.failures)))
        #expect(every.failed >= sampled.failed)
    }

    /// A crash anywhere in the copy of a session being set aside leaves states whose next launch
    /// drops the partial copy and copies the session again: those recoveries are finished from the
    /// first one's second stage, and the failures are those of running every recovery in full.
    @Test(arguments: [PersistenceModel.pessimistic, .process])
    func resumedRecoveriesChangeNoVerdict(_ model: PersistenceModel) throws {
        let text = VerdictStabilityTests.setAside(tabs: 8)
        let fast = try run("8-tabs", .unsyncedSetAside, model, text: text)
        let reference = try run("8-tabs", .unsyncedSetAside, model, text: text, shortcuts: false)
        #expect(fast.resumed > 0, "crashes inside the set-aside copy resume from a remembered second stage")
        #expect(reference.resumed == 0)
        #expect(fast.explored == reference.explored)
        #expect(fast.failures == reference.failures)
        if model == .pessimistic { #expect(fast.failed > 0, "the planted flaw fails, so failures are compared") }
    }
}
