import FileSystemKit
import Foundation
import SessionForensics
import SessionFormats
@_spi(CrashTesting) import SessionStore
import TestSupport
import Testing

@_spi(CrashTesting) @testable import CrashSimulator

/// The damaged profiles the built-in workloads start from: made by code, one window of each kind
/// Chrome's loading rules shorten or refuse, the same on disk as in the model, and explored by
/// `crash-test` with no option: the store's first launch sets them aside or keeps copies, and the
/// safe protocol passes under both models.
@Suite(.exhaustive) struct DamagedProfileTests {
    init() { Browsers.install() }

    /// Chrome's outcome for every window of `profile`, by window name.
    private func outcomes(_ profile: DamagedProfile) throws -> [String: ChromeLoadSemantics.Outcome] {
        let fileSystem = ModelFileSystem(tree: ModelTree())
        try profile.write(to: fileSystem, profile: "/profile")
        var outcomes: [String: ChromeLoadSemantics.Outcome] = [:]
        for (window, _) in profile.windows {
            let key = SessionKey(id: WorkloadDriver.sessionID(of: window), incognito: false)
            outcomes[window] = SessionDirectoryLoader(fileSystem: fileSystem, profile: "/profile").load(key)
        }
        return outcomes
    }

    @Test func theShortenedProfileHasOneWindowOfEachKindChromeShortens() throws {
        let outcomes = try outcomes(.shortenedSessions)
        #expect(outcomes.values.allSatisfy { $0.loss == nil && $0.shortenings.count == 1 })
        #expect(outcomes["main"]?.droppedTabs.map(\.reason) == [.noNavigationItems])
        #expect(outcomes["second"]?.droppedTabs.map(\.reason) == [.duplicateID])
        #expect(outcomes["third"]?.tabsWithoutData == [10])
    }

    @Test func theRefusedProfileHasOneWindowOfEachKindChromeRefuses() throws {
        let outcomes = try outcomes(.refusedSessions)
        #expect(outcomes["main"]?.loss == .metadataMissing)
        #expect(outcomes["main"]?.deletedEntries.isEmpty == false, "its tab directories stay, so the store sets it aside")
        if case .metadataUnparsable? = outcomes["second"]?.loss {
        } else {
            Issue.record("second: \(String(describing: outcomes["second"]?.loss))")
        }
        #expect(outcomes["third"]?.loss == .invalidTabID(index: 2, id: 0))
    }

    /// A repair cut short: `main` whole and live; `second` and `third` set aside and named by the
    /// intent record with the digests of their entries; `second`'s repaired copy staged whole.
    @Test func theInterruptedRepairIsOneTheNextRunSettles() throws {
        let fileSystem = ModelFileSystem(tree: ModelTree())
        try DamagedProfile.interruptedRepair.write(to: fileSystem, profile: "/profile")
        let outcomes = try outcomes(.interruptedRepair)
        #expect(outcomes["main"]?.loss == nil && outcomes["main"]?.shortenings.isEmpty == true)
        #expect(outcomes["second"]?.loss == .metadataMissing && outcomes["third"]?.loss == .metadataMissing, "neither is live")
        let writer = AtomicWriter(fileSystem: fileSystem)
        let intent = try #require(RepairIntent.read(writer, profile: "/profile"))
        let directories = ["second", "third"].map { "SessionStorage/" + WorkloadDriver.sessionID(of: $0) }
        #expect(intent.directories == directories)
        let commands = InterruptedCommands(writer: writer, profile: "/profile")
        #expect(commands.stagedRepairs() == ["SessionStorage/.sessionctl-repair." + WorkloadDriver.sessionID(of: "second")])
        let steps = try commands.settle()
        #expect(steps.first == .finishedRepair(directory: directories[0]), "\(steps.map(\.description))")
        #expect(steps.count == 2, "the staged copy finished, the other original put back: \(steps.map(\.description))")
        let settled = SessionDirectoryLoader(fileSystem: fileSystem, profile: "/profile")
        #expect(settled.load(SessionKey(id: WorkloadDriver.sessionID(of: "second"), incognito: false)).shortenings.isEmpty)
        #expect(settled.load(SessionKey(id: WorkloadDriver.sessionID(of: "third"), incognito: false)).tabsWithoutData == [10])
        #expect(RepairIntent.read(writer, profile: "/profile") == nil)
    }

    /// Every file below `path`, by relative path, with its bytes.
    private func files(_ fileSystem: any ReadableFileSystem, _ path: String) -> [String: [UInt8]] {
        var found: [String: [UInt8]] = [:]
        for file in FileListing.files(fileSystem, under: path, strict: true) ?? [] {
            found[file] = try? fileSystem.read(joinPath(path, file))
        }
        return found
    }

    /// The kill loop's child starts from the profile written on disk: the same files as the
    /// recording's, and the same file operations from there.
    @Test(arguments: DamagedProfile.allCases)
    func onDiskTheProfileIsTheRecordingsAndTheChildMakesItsOperations(_ profile: DamagedProfile) throws {
        let name = profile.rawValue
        let workload = try #require(try BuiltInWorkloads.workload(name))
        #expect(workload.start == profile, "the built-in workload of that name starts from it")
        let recording = try WorkloadRecorder().record(workload)
        #expect(recording.start == profile)
        let directory = try TemporaryDirectoryForTests()
        defer { directory.remove() }
        let path = joinPath(directory.path, "profile")
        try POSIXFileSystem().mkdir(path, mode: 0o755)
        try profile.write(to: POSIXFileSystem(), profile: path)
        let initial = ModelFileSystem(tree: ModelTree(snapshot: recording.initial, names: recording.names))
        let expected = files(initial, recording.profile)
        #expect(expected.count > 10)
        #expect(files(POSIXFileSystem(), path) == expected)
        let fileSystem = KillSwitchFileSystem(stopAt: nil)
        let driver = WorkloadDriver(workloadName: name, fileSystem: fileSystem, profile: path, writeProtocol: .safe)
        for step in workload.steps { try driver.perform(step.event) }
        #expect(fileSystem.performed == recording.operations.count)
    }

    @Test func aWorkloadWithAProfileOfItsOwnTakesNoOther() throws {
        let workload = try #require(try BuiltInWorkloads.workload("refused-sessions"))
        #expect(throws: SimulatorError.self) { try WorkloadRecorder().record(workload, startingProfile: "/nonexistent") }
    }

    /// No option needed: the first launch keeps copies or sets sessions aside, the losses Chrome's
    /// rules cause are named, and every crash state passes.
    @Test(arguments: DamagedProfile.allCases, [PersistenceModel.process, .pessimistic])
    func theSafeProtocolPassesFromADamagedStart(_ profile: DamagedProfile, model: PersistenceModel) throws {
        var configuration = CrashTest.Configuration()
        configuration.workload = profile.rawValue
        configuration.model = model
        let test = CrashTest(configuration: configuration)
        let recording = try test.record()
        // The renames that put a set-aside entry in place (not its manifest's).
        let setAside = recording.operations.filter {
            $0.kind == .rename && ($0.destination ?? "").contains("/Backups/") && !($0.destination ?? "").hasSuffix("manifest.json")
        }
        // An interrupted repair's start: the entry put back is dropped (a rename into Backups/ of
        // its own), and a copy is kept of the one window Chrome then shortens.
        #expect(setAside.count == (profile == .interruptedRepair ? 2 : 3), "one entry per damaged window: \(setAside.map(\.summary))")
        let report = try test.run()
        #expect(report.result.failed == 0, "\(report.result.failures.prefix(3).map { "\($0.message) [\(report.reproducer($0).text)]" })")
        let losses = [DamagedProfile.shortenedSessions: 3, .refusedSessions: 0, .interruptedRepair: 2]
        #expect(report.chromeRuleLosses.count == losses[profile], "\(report.chromeRuleLosses)")
        #expect(report.result.recoveryCrashStates > 0)
    }
}
