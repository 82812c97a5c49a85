import FileSystemKit
import Foundation
import SessionFormats
import TestSupport
import Testing

@_spi(CrashTesting) @testable import CrashSimulator
@testable import FirefoxIOS
@testable import FirefoxIOSStore

/// `crash-test --store firefox-ios`: the model of Firefox for iOS's save protocol writes what
/// Firefox's code writes, loses nothing when only the process dies, loses whole windows on a power
/// loss, and its durable variant loses nothing under either model.
@Suite struct FirefoxIOSStoreCrashTestTests {
    init() { Browsers.install() }

    private func run(
        _ workload: String, model: PersistenceModel, saveProtocol: FirefoxIOSSaveProtocol = .firefox
    ) throws -> FirefoxIOSStoreCrashTest.Report {
        var configuration = FirefoxIOSStoreCrashTest.Configuration()
        configuration.workload = workload
        configuration.model = model
        configuration.saveProtocol = saveProtocol
        return try FirefoxIOSStoreCrashTest(configuration: configuration).run()
    }

    /// The tree a run leaves when nothing crashes.
    private func finalTree(_ run: FirefoxIOSStoreRun) -> ModelFileSystem {
        let tree = ModelTree(snapshot: run.recording.initial, names: run.recording.names)
        for (index, operation) in run.recording.operations.enumerated() { tree.apply(operation.effect, index: Int32(index)) }
        return ModelFileSystem(tree: tree)
    }

    @Test func aThrottledSaveCopiesTheWindowFileToTheBackupAndAForcedSaveDoesNot() throws {
        // small: a throttled save (no file yet, so no backup), a throttled save (the first file
        // becomes the backup), then the app goes to the background (a forced save).
        let run = try FirefoxIOSStoreRun.record(WorkloadSource.load("small"), saveProtocol: .firefox)
        #expect(
            run.saves.map(\.label) == [
                "save 1 (throttled) of window main", "save 2 (throttled) of window main", "save 3 (background) of window main"
            ])
        let id = try #require(run.windowIDs.first)
        let disk = finalTree(run)
        #expect(try disk.read(run.paths.windowPath(id), limit: 1 << 20) == run.saves[2].bytes)
        #expect(try disk.read(run.paths.backupPath(id), limit: 1 << 20) == run.saves[0].bytes)
        let window = try #require(FirefoxWindowDecoder.decode(run.saves[2].bytes).window)
        #expect(window.tabs.map(\.siteURL) == ["https://example.org/about", "https://docs.example.net/guide"])
        // Foundation's Data.write(.atomic) fsyncs each temporary file (three saves, three
        // fsyncs) and never a directory; FileManager's copy of the backup is not fsynced.
        #expect(run.recording.operations.filter { $0.effect.isBarrier }.count == 3, "\(run.recording.operations.map(\.effect))")
        let unsynced = try FirefoxIOSStoreRun.record(WorkloadSource.load("small"), saveProtocol: .unsynced)
        #expect(!unsynced.recording.operations.contains { $0.effect.isBarrier })
    }

    @Test func privateTabsAreNotSavedAndACrashDropsTheThrottledSaveNotYetMade() throws {
        let run = try FirefoxIOSStoreRun.record(WorkloadSource.load("typical"), saveProtocol: .firefox)
        for save in run.saves { #expect(!save.pages.contains { $0.contains("private.example") }, "\(save.label)") }
        // typical: navigate t5, wait, crash: the navigation was saved; after the relaunch the
        // second window still holds t5's new page.
        #expect(run.saves.contains { $0.pages.contains("https://video.example.com/watch?v=2") })
        #expect(run.windowIDs.count == 2)
    }

    @Test(arguments: ["small", "typical", "incognito"])
    func whenOnlyTheProcessDiesFirefoxLoadsTheLastSaveThatReturned(_ workload: String) throws {
        let report = try run(workload, model: .process)
        #expect(report.result.failed == 0, "\(report.result.failures.first?.message ?? "")")
        #expect(report.outcomes.latest == report.result.explored)
        #expect(report.result.explored > report.operations)
    }

    @Test func aPowerLossLosesWholeWindowsAndEarlierSavesAndTheReproducersReplay() throws {
        let report = try run("small", model: .pessimistic)
        #expect(report.result.failed > 0)
        #expect(report.outcomes.lost > 0 && report.outcomes.older > 0)
        #expect(report.outcomes.torn == 0, "a file Firefox decodes is always one some save wrote")
        #expect(report.outcomes.latest + report.outcomes.older + report.outcomes.lost == report.result.explored)
        let lost = try #require(report.result.failures.first { $0.message.contains("is lost") })
        let text = report.reproducer(lost).text
        #expect(text.hasPrefix("store=firefox-ios;workload=small;model=pessimistic;protocol=firefox;seed=1;crash="))
        let outcome = try Replayer().replay(try Reproducer(text: text))
        #expect(outcome.findings.first?.message == lost.message)
        let older = try #require(report.result.failures.first { $0.message.contains("not as save") })
        #expect(try Replayer().replay(try Reproducer(text: report.reproducer(older).text)).findings.first?.message == older.message)
    }

    @Test(arguments: ["small", "typical", "incognito"], [PersistenceModel.process, .pessimistic])
    func theDurableVariantLosesNothing(_ workload: String, model: PersistenceModel) throws {
        let report = try run(workload, model: model, saveProtocol: .durable)
        #expect(report.result.failed == 0, "\(report.result.failures.first?.message ?? "")")
        #expect(report.outcomes.latest == report.result.explored)
    }

    @Test func theJudgeWithoutShortcutsGivesTheSameVerdicts() throws {
        let run = try FirefoxIOSStoreRun.record(WorkloadSource.load("small"), saveProtocol: .firefox)
        #expect(StoreShortcutCheck.compare(run, judgedBy: FirefoxIOSStoreJudge.self) > 100)
    }

    @Test func reproducersOfTheStoreParseAndRefuseWhatIsNotTheirs() throws {
        let text = "store=firefox-ios;workload=small;model=pessimistic;protocol=firefox-durable;seed=3;crash=7;keep=none"
        let reproducer = try Reproducer(text: text)
        #expect(
            reproducer.store == BrowserStore(model: FirefoxIOSStoreCrashTest.model, protocolName: FirefoxIOSSaveProtocol.durable.rawValue))
        #expect(reproducer.text == text)
        #expect(throws: SimulatorError.self) {
            try Reproducer(text: "store=firefox-ios;workload=small;model=process;protocol=safe;seed=1;crash=1")
        }
        #expect(throws: SimulatorError.self) {
            try Reproducer(text: "store=edge;workload=small;model=process;protocol=firefox;seed=1;crash=1")
        }
        #expect(throws: SimulatorError.self) {
            try Replayer().replay(
                try Reproducer(text: "store=firefox-ios;workload=small;model=process;protocol=firefox;seed=1;crash=99999"))
        }
    }
}

/// What a second read of the Firefox store's judge found, each held by a test.
@Suite struct FirefoxIOSStoreJudgeTests {
    init() { Browsers.install() }

    /// A save that writes the same bytes as an earlier one, later, does not excuse loading the
    /// earlier one while a save in between had returned.
    @Test func aLaterSaveWithTheSameBytesDoesNotHideAnOlderLoad() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ff-judge-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("same.workload").path
        try Data(
            """
            launch
            open t1 https://example.org/ "Example"
            activate t1
            wait
            open t2 https://example.org/two "Two"
            wait
            close t2
            wait
            """.utf8
        ).write(to: URL(fileURLWithPath: file))
        let run = try FirefoxIOSStoreRun.record(WorkloadSource.load(file), saveProtocol: .firefox)
        #expect(run.saves.count == 3 && run.saves[0].bytes == run.saves[2].bytes, "save 3 writes what save 1 wrote")
        var configuration = FirefoxIOSStoreCrashTest.Configuration()
        configuration.workload = file
        let report = try FirefoxIOSStoreCrashTest(configuration: configuration).run()
        let between = report.result.failures.filter {
            $0.crashAfter >= run.saves[1].afterOperations && $0.crashAfter < run.saves[2].afterOperations - 1
                && $0.message.contains("as save 1 (throttled) of window main wrote it")
        }
        #expect(!between.isEmpty, "loading save 1 after save 2 returned is caught")
    }
}
