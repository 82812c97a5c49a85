import FileSystemKit
import Foundation
import SessionFormats
import TestSupport
import Testing

@_spi(CrashTesting) @testable import CrashSimulator
@testable import FirefoxDesktop
@_spi(CrashTesting) @testable import FirefoxDesktopStore

/// `crash-test --store firefox-desktop`: the model of Firefox desktop's session store writes what
/// Firefox's `SessionWriter` writes, loses nothing when only the process dies, loses the whole
/// session on a power loss (after a clean shutdown too), and its durable variant loses nothing
/// under either model.
@Suite struct FirefoxDesktopStoreCrashTestTests {
    init() { Browsers.install() }

    private func run(
        _ workload: String, model: PersistenceModel, saveProtocol: FirefoxDesktopSaveProtocol = .firefox
    ) throws -> FirefoxDesktopStoreCrashTest.Report {
        var configuration = FirefoxDesktopStoreCrashTest.Configuration()
        configuration.workload = workload
        configuration.model = model
        configuration.saveProtocol = saveProtocol
        return try FirefoxDesktopStoreCrashTest(configuration: configuration).run()
    }

    /// The model file system as a run leaves it when nothing crashes, after its first `count` operations.
    private func tree(_ run: FirefoxDesktopStoreRun, after count: Int) -> ModelFileSystem {
        let tree = ModelTree(snapshot: run.recording.initial, names: run.recording.names)
        for (index, operation) in run.recording.operations.prefix(count).enumerated() { tree.apply(operation.effect, index: Int32(index)) }
        return ModelFileSystem(tree: tree)
    }

    private func path(_ role: SessionstoreRole) -> String { joinPath(FirefoxDesktopStoreRun.profile, role.path()) }

    @Test func theWriterRotatesRecoveryWritesTheCleanFileAtShutdownAndMovesItAsideAfterTheLaunch() throws {
        // typical: two delayed saves, a crash and a relaunch (from recovery), a shutdown, a relaunch
        // (from the clean file) and one more delayed save.
        let run = try FirefoxDesktopStoreRun.record(WorkloadSource.load("typical"), saveProtocol: .firefox)
        #expect(run.saves.map(\.label) == ["save 1 (delayed)", "save 2 (delayed)", "save 3 (shutdown)", "save 4 (delayed)"])
        // After the shutdown: the clean file, and no recovery file (Firefox removes them unless it restores at every launch).
        let shutdown = tree(run, after: run.saves[2].afterOperations)
        #expect(try shutdown.read(path(.clean), limit: 1 << 20) == run.saves[2].bytes)
        #expect(shutdown.kind(of: path(.recovery)) == nil && shutdown.kind(of: path(.recoveryBackup)) == nil)
        // After the relaunch's first save: the clean file is previous.jsonlz4, recovery the new session.
        let end = tree(run, after: run.recording.operations.count)
        #expect(end.kind(of: path(.clean)) == nil)
        #expect(try end.read(path(.cleanBackup), limit: 1 << 20) == run.saves[2].bytes)
        #expect(try end.read(path(.recovery), limit: 1 << 20) == run.saves[3].bytes)
        // The second save rotated the first to recovery.baklz4 (Firefox had loaded nothing, then written recovery).
        let second = tree(run, after: run.saves[1].afterOperations)
        #expect(try second.read(path(.recoveryBackup), limit: 1 << 20) == run.saves[0].bytes)
        // What is written is what Firefox loads: mozLz4 JSON of the open tabs, private ones left out.
        let file = SessionstoreFile.decode(run.saves[3].bytes, file: "s", compressed: true)
        #expect(file.loadsInFirefox)
        let urls = file.document?.windows.flatMap { $0.tabs.compactMap { $0.currentEntry?.url } } ?? []
        #expect(!urls.isEmpty && !urls.contains { $0.contains("private.example") })
        // Nothing is fsynced: IOUtils.writeJSON without flush.
        #expect(!run.recording.operations.contains { $0.effect.isBarrier })
    }

    @Test(arguments: ["small", "typical", "incognito", "crash-loop"])
    func whenOnlyTheProcessDiesFirefoxLoadsTheLastWriteThatReturned(_ workload: String) throws {
        let report = try run(workload, model: .process)
        #expect(report.result.failed == 0, "\(report.result.failures.first?.message ?? "")")
        #expect(report.outcomes.latest == report.result.explored)
    }

    @Test func aPowerLossLosesTheSessionEvenAfterACleanShutdownAndTheReproducersReplay() throws {
        let report = try run("typical", model: .pessimistic)
        #expect(report.result.failed > 0)
        #expect(report.outcomes.lost > 0 && report.outcomes.older > 0)
        #expect(report.outcomes.torn == 0, "a file Firefox loads is always one some write wrote")
        #expect(report.outcomes.latest + report.outcomes.older + report.outcomes.lost == report.result.explored)
        // The recovery files' removal can reach the disk before the clean file's content.
        let shutdown = try #require(
            report.result.failures.first { $0.message.contains("is lost") && $0.message.contains("save 3 (shutdown) had returned") })
        let text = report.reproducer(shutdown).text
        #expect(text.hasPrefix("store=firefox-desktop;workload=typical;model=pessimistic;protocol=firefox;seed=1;crash="))
        #expect(try Replayer().replay(try Reproducer(text: text)).findings.first?.message == shutdown.message)
        let older = try #require(report.result.failures.first { $0.message.contains("not as save") })
        #expect(try Replayer().replay(try Reproducer(text: report.reproducer(older).text)).findings.first?.message == older.message)
    }

    @Test(arguments: ["small", "typical", "incognito", "crash-loop"], [PersistenceModel.process, .pessimistic])
    func theDurableVariantLosesNothing(_ workload: String, model: PersistenceModel) throws {
        let report = try run(workload, model: model, saveProtocol: .durable)
        #expect(report.result.failed == 0, "\(report.result.failures.first?.message ?? "")")
        #expect(report.outcomes.latest == report.result.explored)
    }

    @Test func theJudgeWithoutShortcutsGivesTheSameVerdicts() throws {
        let run = try FirefoxDesktopStoreRun.record(WorkloadSource.load("typical"), saveProtocol: .firefox)
        #expect(StoreShortcutCheck.compare(run, judgedBy: FirefoxDesktopStoreJudge.self) > 100)
    }

    @Test func reproducersOfTheStoreParseAndRefuseWhatIsNotTheirs() throws {
        let text = "store=firefox-desktop;workload=small;model=pessimistic;protocol=firefox-durable;seed=3;crash=7;keep=none"
        let reproducer = try Reproducer(text: text)
        #expect(
            reproducer.store
                == BrowserStore(model: FirefoxDesktopStoreCrashTest.model, protocolName: FirefoxDesktopSaveProtocol.durable.rawValue))
        #expect(reproducer.text == text)
        #expect(throws: SimulatorError.self) {
            try Reproducer(text: "store=firefox-desktop;workload=small;model=process;protocol=safe;seed=1;crash=1")
        }
        #expect(throws: SimulatorError.self) {
            try Replayer().replay(
                try Reproducer(text: "store=firefox-desktop;workload=small;model=process;protocol=firefox;seed=1;crash=99999"))
        }
    }
}
