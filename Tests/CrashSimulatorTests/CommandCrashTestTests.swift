import FileSystemKit
import Foundation
import SessionForensics
@_spi(CrashTesting) import SessionStore
import TestSupport
import Testing

@_spi(CrashTesting) @testable import CrashSimulator

/// `crash-test --command`: every crash state of repair, migrate, aside push and restore, and
/// import keeps every tab and converges on a re-run; a flawed write protocol is caught, and its
/// reproducers replay to the same verdict.
@Suite(.exhaustive) struct CommandCrashTestTests {
    init() { Browsers.install() }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static func gallery(_ name: String) -> String { repository.appendingPathComponent("Fixtures/gallery/\(name)").path }

    private func run(
        _ command: ProfileCommand, _ input: String, model: PersistenceModel,
        writeProtocol: WriteProtocol = .safe
    ) throws -> CommandCrashTest.Report {
        var configuration = CommandCrashTest.Configuration(command: command, input: input)
        configuration.model = model
        configuration.writeProtocol = writeProtocol
        return try CommandCrashTest(configuration: configuration).run()
    }

    // Repair is run on every gallery profile by GalleryRepairCrashTests.
    @Test(
        arguments: [
            (ProfileCommand.migrate, "healthy"), (.migrate, "legacy-healthy"), (.asidePush, "healthy"), (.importDocument, "healthy.json")
        ], [PersistenceModel.process, .pessimistic])
    func everyCrashStateKeepsEveryTabAndConverges(_ target: (ProfileCommand, String), model: PersistenceModel) throws {
        let report = try run(target.0, Self.gallery(target.1), model: model)
        #expect(report.operations > 10)
        #expect(report.result.explored > report.operations)
        #expect(report.result.failed == 0, "\(report.result.failures.first?.message ?? "")")
        #expect(!report.result.truncated)
    }

    @Test func restoringAnEntryKeepsItUntilItsCopyIsLive() throws {
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("restore-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: profile) }
        try FileManager.default.copyItem(atPath: Self.gallery("healthy"), toPath: profile)
        let aside = Aside(profile: profile, toolVersion: "test")
        #expect(try aside.push(session: nil, incognito: false, reason: "test").count == 1)
        for model in PersistenceModel.allCases {
            let report = try run(.asideRestore, profile, model: model)
            #expect(report.operations > 5)
            #expect(report.result.failed == 0, "\(model): \(report.result.failures.first?.message ?? "")")
        }
    }

    /// A drop removes its entry's tabs, and only those, whole: at every crash state the other
    /// entry and the live sessions are held, and a re-run leaves the uninterrupted run's result.
    @Test func droppingAnEntryRemovesItWholeAndNothingElse() throws {
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("drop-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: profile) }
        try FileManager.default.copyItem(atPath: Self.gallery("healthy"), toPath: profile)
        let aside = Aside(profile: profile, toolVersion: "test")
        #expect(try aside.push(session: nil, incognito: false, reason: "test").count == 1)
        for model in PersistenceModel.allCases {
            let report = try run(.asideDrop, profile, model: model)
            #expect(report.operations > 3)
            #expect(report.result.failed == 0, "\(model): \(report.result.failures.first?.message ?? "")")
        }
    }

    @Test func writingWithoutFsyncIsCaughtAndReplays() throws {
        let report = try run(.repair, Self.gallery("tab-id-duplicate"), model: .pessimistic, writeProtocol: .noFsync)
        #expect(report.result.failed > 0)
        #expect(report.result.failuresByOracle[.tabsKept, default: 0] > 0)
        let failure = try #require(report.result.failures.first)
        let reproducer = report.reproducer(failure)
        #expect(reproducer.text.hasPrefix("command=repair;input="))
        let parsed = try Reproducer(text: reproducer.text)
        #expect(parsed == reproducer)
        let outcome = try Replayer().replay(parsed)
        #expect(Set(outcome.findings) == Set(failure.findings))
    }

    @Test func theSameStatesUnderTheProcessModelAreNotFailures() throws {
        // What the process model keeps (every completed call) is safe even without fsync: the
        // failures above come from the power-loss states alone.
        let report = try run(.repair, Self.gallery("tab-id-duplicate"), model: .process, writeProtocol: .noFsync)
        #expect(report.result.failed == 0)
    }

    @Test func aStateWithTabsOnlyInAnUnverifiedEntryFails() throws {
        let run = try CommandRun.record(.asidePush, input: Self.gallery("healthy"), writeProtocol: .safe)
        let tree = ModelTree(snapshot: run.recording.initial, names: run.recording.names)
        tree.isJournaling = true
        // Every operation applied, then the manifest's bytes spoiled: the window is only in an
        // entry that no longer verifies.
        for (index, operation) in run.recording.operations.enumerated() { tree.apply(operation.effect, index: Int32(index)) }
        let fileSystem = ModelFileSystem(tree: tree)
        let backups = joinPath(run.recording.profile, "Backups")
        let session = try #require(try fileSystem.list(backups).first)
        let stamp = try #require(try fileSystem.list(joinPath(backups, session)).first)
        let manifest = joinPath(backups, session, stamp, "manifest.json")
        try fileSystem.unlink(manifest)
        let handle = try fileSystem.createExclusive(manifest, mode: 0o600)
        _ = try fileSystem.write(handle, Array("{\"files\": []}".utf8)[...])
        try fileSystem.close(handle)
        let findings = CommandJudge(run: run).judge(tree)
        #expect(findings.contains { $0.oracle == .tabsKept })
    }

    @Test func commandReproducersRoundTripAndRefuseMixing() throws {
        var reproducer = Reproducer(workload: "repair p", model: .process, writeProtocol: .safe, seed: 3, state: CrashState(crashPoint: 4))
        reproducer.command = (.repair, "/tmp/p")
        #expect(reproducer.text == "command=repair;input=/tmp/p;model=process;protocol=safe;seed=3;crash=4;keep=all")
        #expect(try Reproducer(text: reproducer.text) == reproducer)
        #expect(throws: SimulatorError.self) {
            try Reproducer(text: "command=repair;input=/p;workload=w;model=process;protocol=safe;seed=1;crash=1")
        }
        #expect(throws: SimulatorError.self) { try Reproducer(text: "command=fly;input=/p;model=process;protocol=safe;seed=1;crash=1") }
        #expect(throws: SimulatorError.self) { try Reproducer(text: "command=repair;model=process;protocol=safe;seed=1;crash=1") }
    }

    @Test func aDirectoryRenameNeverLeavesTwoNames() throws {
        let tree = ModelTree()
        let fileSystem = ModelFileSystem(tree: tree)
        try fileSystem.mkdir("/a", mode: 0o755)
        try fileSystem.mkdir("/a/x", mode: 0o755)
        let before = tree.snapshot()
        fileSystem.clearOperations()
        try fileSystem.rename("/a/x", to: "/a/y")
        let effect = try #require(fileSystem.operations.first?.effect)
        // Only "link destination" of the rename's steps: for a directory the source goes too.
        let torn = ModelTree(snapshot: before, names: tree.names)
        torn.applyRenameSteps(effect, steps: 4)
        let tornSystem = ModelFileSystem(tree: torn)
        #expect(tornSystem.kind(of: "/a/y") == .directory)
        #expect(tornSystem.kind(of: "/a/x") == nil)
    }
}

/// `crash-test --command repair` is clean under both models on every profile of the gallery.
@Suite(.exhaustive) struct GalleryRepairCrashTests {
    init() { Browsers.install() }

    static let profiles: [String] = {
        let gallery = CommandCrashTestTests.repository.appendingPathComponent("Fixtures/gallery").path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: gallery)) ?? []
        return names.filter { name in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: "\(gallery)/\(name)", isDirectory: &isDirectory) && isDirectory.boolValue
        }.sorted()
    }()

    @Test func theGalleryIsThere() {
        #expect(Self.profiles.count > 50)
    }

    @Test(arguments: profiles)
    func repairIsCrashSafe(_ profile: String) throws {
        for model in PersistenceModel.allCases {
            var configuration = CommandCrashTest.Configuration(command: .repair, input: CommandCrashTestTests.gallery(profile))
            configuration.model = model
            let report = try CommandCrashTest(configuration: configuration).run()
            #expect(
                report.result.failed == 0,
                "\(profile), \(model): \(report.result.failures.first.map { "\($0.message) [\(report.reproducer($0).text)]" } ?? "")")
        }
    }
}

/// The store's first recovery meets what a profile already holds: the small workload, started
/// from every gallery profile under the process model, is clean on every one. Where Chrome's own
/// loading rules shorten a session, the report names the rule (the store keeps a copy of the
/// session first, and the oracles allow the loss only then); files outside Chrome's layout that
/// the profile already held are the user's, kept, and not charged to the store.
@Suite(.exhaustive) struct StartingProfileTests {
    init() { Browsers.install() }

    static let shortenedByChrome: Set<String> = [
        "tab-data-missing", "tab-directory-missing", "tab-directory-short", "tab-directory-upper-case", "tab-id-duplicate", "tab-no-history"
    ]

    @Test(arguments: GalleryRepairCrashTests.profiles)
    func theStoresFirstRecoveryOfEveryGalleryProfile(_ profile: String) throws {
        var configuration = CrashTest.Configuration()
        configuration.workload = "small"
        configuration.startingProfile = CommandCrashTestTests.gallery(profile)
        configuration.model = .process
        let report = try CrashTest(configuration: configuration).run()
        #expect(
            report.result.failed == 0,
            "\(profile): \(report.result.failures.first.map { "\($0.message) [\(report.reproducer($0).text)]" } ?? "")")
        #expect(report.chromeRuleLosses.isEmpty != Self.shortenedByChrome.contains(profile), "\(profile): \(report.chromeRuleLosses)")
    }

    @Test func reproducersCarryTheStartingProfile() throws {
        let reproducer = Reproducer(
            workload: "small", startingProfile: "/p/q", model: .process, writeProtocol: .inPlace, seed: 1,
            state: CrashState(crashPoint: 3))
        #expect(reproducer.text == "workload=small;from=/p/q;model=process;protocol=in-place;seed=1;crash=3;keep=all")
        #expect(try Reproducer(text: reproducer.text) == reproducer)
    }

    @Test func aFlawedProtocolIsCaughtFromAStartingProfileAndReplays() throws {
        var configuration = CrashTest.Configuration()
        configuration.workload = "small"
        configuration.startingProfile = CommandCrashTestTests.gallery("legacy-healthy")
        configuration.model = .process
        configuration.writeProtocol = .inPlace
        let report = try CrashTest(configuration: configuration).run()
        let failure = try #require(report.result.failures.first)
        let reproducer = report.reproducer(failure)
        #expect(reproducer.text.contains(";from="))
        #expect(try Replayer().replay(try Reproducer(text: reproducer.text)).findings.contains { $0.oracle == failure.oracle })
    }
}
