import FileSystemKit
import Foundation
import SessionFormats
import TestSupport
import Testing

@testable import ChromiumDesktop
@_spi(CrashTesting) @testable import ChromiumDesktopStore
@_spi(CrashTesting) @testable import CrashSimulator

/// `crash-test --store chromium-desktop`: the model of Chromium desktop's session service writes
/// what Chrome's `CommandStorageBackend` writes (appends, resets into new files, the deletions
/// after a reset and at launch); a kill between a reset's file creation and its header loses the
/// session; a power loss loses it many ways; the durable variant loses nothing acknowledged.
@Suite(.exhaustive) struct ChromiumDesktopStoreCrashTestTests {
    init() { Browsers.install() }

    private func run(
        _ workload: String, model: PersistenceModel, saveProtocol: ChromiumDesktopSaveProtocol = .chromium
    ) throws -> ChromiumDesktopStoreCrashTest.Report {
        var configuration = ChromiumDesktopStoreCrashTest.Configuration()
        configuration.workload = workload
        configuration.model = model
        configuration.saveProtocol = saveProtocol
        return try ChromiumDesktopStoreCrashTest(configuration: configuration).run()
    }

    /// The model tree as a run leaves it when nothing crashes, after its first `count` operations.
    private func tree(_ run: ChromiumDesktopStoreRun, after count: Int) -> ModelTree {
        let tree = ModelTree(snapshot: run.recording.initial, names: run.recording.names)
        for (index, operation) in run.recording.operations.prefix(count).enumerated() { tree.apply(operation.effect, index: Int32(index)) }
        return tree
    }

    /// The `Session_` files in the tree's `Sessions` directory.
    private func sessionFiles(_ tree: ModelTree) throws -> [String] {
        try ModelFileSystem(tree: tree).list(joinPath(ChromiumDesktopStoreRun.profile, "Sessions")).sorted()
    }

    @Test func theWriterAppendsResetsAtLaunchAndRestoresWhatItWrote() throws {
        // typical: a reset, delayed batches, a crash and a relaunch (a reset), a shutdown, a relaunch.
        let run = try ChromiumDesktopStoreRun.record(WorkloadSource.load("typical"), saveProtocol: .chromium)
        #expect(run.saves.first?.label == "save 1 (reset)")
        #expect(run.saves.filter { $0.label.hasSuffix("(reset)") }.count == 3)
        #expect(run.saves.contains { $0.label.hasSuffix("(shutdown)") })
        // A batch that is no reset goes to the file the last reset made.
        for (index, save) in run.saves.enumerated() where !save.label.hasSuffix("(reset)") {
            #expect(save.written.name == run.saves[index - 1].written.name)
        }
        // Nothing is fsynced: no flush after appending, no directory fsync.
        #expect(!run.recording.operations.contains { $0.effect.isBarrier })
        // Each file is what was written to it, and Chrome restores the last batch's tabs, incognito ones left out.
        let end = tree(run, after: run.recording.operations.count)
        let restore = try #require(ChromiumDesktopStoreJudge.restore(end))
        let last = try #require(run.saves.last)
        #expect(restore.name == last.written.name && restore.bytes.array == run.intended[restore.name])
        #expect(restore.consumed == last.written.end && restore.tabs == last.tabs)
        #expect(!restore.tabs.joined().contains { $0.contains("private.example") })
        // A launch deletes every file but the one it restores; the reset after it adds one.
        #expect(try sessionFiles(end).count == 2)
    }

    @Test func aThirdResetDeletesTheFirstResetsFile() throws {
        let run = try ChromiumDesktopStoreRun.record(WorkloadSource.load("desktop-resets"), saveProtocol: .chromium)
        let resets = run.saves.filter { $0.label.hasSuffix("(reset)") }
        #expect(resets.count >= 4, "\(run.saves.map(\.label))")
        // Before the crash: three resets in one run; after the third only the last two files are kept.
        let third = try #require(run.saves.firstIndex { $0.written.name == resets[2].written.name })
        let files = try sessionFiles(tree(run, after: run.saves[third].afterOperations))
        #expect(files == [resets[1].written.name, resets[2].written.name])
    }

    @Test(arguments: [("small", false), ("incognito", false), ("typical", true), ("crash-loop", true), ("desktop-resets", true)])
    func whenOnlyTheProcessDiesChromeLosesTheSessionOnlyToAnEmptyNewerFile(_ workload: String, resetsAfterASave: Bool) throws {
        let report = try run(workload, model: .process)
        // Only a reset after a batch had returned can lose it (a first launch's reset has nothing to lose).
        #expect((report.result.failed > 0) == resetsAfterASave)
        // Chrome creates a reset's file before it writes the header; a file without a header is one it takes and restores nothing from.
        for failure in report.result.failures {
            #expect(failure.message.contains("without the header Chrome reads"), "\(failure.message)")
        }
        #expect(report.outcomes.torn == 0 && report.outcomes.older == 0)
    }

    @Test(arguments: ["small", "typical", "incognito", "crash-loop"])
    func theDurableVariantLosesNothingWhenOnlyTheProcessDies(_ workload: String) throws {
        let report = try run(workload, model: .process, saveProtocol: .durable)
        #expect(report.result.failed == 0, "\(report.result.failures.first?.message ?? "")")
        #expect(report.outcomes.latest == report.result.explored)
    }

    @Test func aPowerLossLosesTheSessionAndTheReproducersReplay() throws {
        let report = try run("small", model: .pessimistic)
        #expect(report.outcomes.lost > 0 && report.outcomes.older > 0)
        #expect(report.outcomes.latest + report.outcomes.older + report.outcomes.lost + report.outcomes.torn == report.result.explored)
        let lost = try #require(report.result.failures.first { $0.message.contains("is lost") })
        let text = report.reproducer(lost).text
        #expect(text.hasPrefix("store=chromium-desktop;workload=small;model=pessimistic;protocol=chromium;seed=1;crash="))
        #expect(try Replayer().replay(try Reproducer(text: text)).findings.first?.message == lost.message)
        let older = try #require(report.result.failures.first { $0.message.contains("not as far as") })
        #expect(try Replayer().replay(try Reproducer(text: report.reproducer(older).text)).findings.first?.message == older.message)
    }

    @Test func underAPowerLossTheDurableVariantLosesNothingThatReturned() throws {
        let report = try run("typical", model: .pessimistic, saveProtocol: .durable)
        #expect(report.outcomes.lost == 0 && report.outcomes.older == 0)
        // What remains: a batch cut by the power loss, its bytes never all written, read back as commands (no checksum).
        for failure in report.result.failures { #expect(failure.oracle == .atomicity, "\(failure.message)") }
        // With only the flush, the file's name itself may never reach the disk.
        let flushed = try run("small", model: .pessimistic, saveProtocol: .flush)
        #expect(flushed.outcomes.lost > 0)
    }

    @Test func theJudgeWithoutShortcutsGivesTheSameVerdicts() throws {
        let run = try ChromiumDesktopStoreRun.record(WorkloadSource.load("small"), saveProtocol: .chromium)
        #expect(StoreShortcutCheck.compare(run, judgedBy: ChromiumDesktopStoreJudge.self) > 100)
    }

    @Test func reproducersOfTheStoreParseAndRefuseWhatIsNotTheirs() throws {
        let text = "store=chromium-desktop;workload=small;model=pessimistic;protocol=chromium-flush;seed=3;crash=7;keep=none"
        let reproducer = try Reproducer(text: text)
        #expect(
            reproducer.store
                == BrowserStore(model: ChromiumDesktopStoreCrashTest.model, protocolName: ChromiumDesktopSaveProtocol.flush.rawValue))
        #expect(reproducer.text == text)
        #expect(throws: SimulatorError.self) {
            try Reproducer(text: "store=chromium-desktop;workload=small;model=process;protocol=firefox;seed=1;crash=1")
        }
        #expect(throws: SimulatorError.self) {
            try Replayer().replay(
                try Reproducer(text: "store=chromium-desktop;workload=small;model=process;protocol=chromium;seed=1;crash=99999"))
        }
    }
}
