import Archive
import ChromiumDesktop
@_spi(CrashTesting) import CrashSimulator
import FileSystemKit
import Foundation
import SessionFormats
import SessionModel
@_spi(CrashTesting) import SessionStore

/// `crash-test --store chromium-desktop`: a workload played on the model of Chromium desktop's
/// session service, then every crash state of its writes under the persistence model judged by
/// what Chrome restores at the next launch (`ChromiumDesktopStoreJudge`).
public struct ChromiumDesktopStoreCrashTest: Sendable {
    /// The store's name on the command line and in reproducers.
    public static let storeName = ChromiumDesktopFamily().name

    /// The store as crash-test's registry lists it (`BrowserStores`).
    public static let model = StoreModel(
        ChromiumDesktopStoreCrashTest.self, name: storeName, defaultProtocol: .chromium,
        fields: { CrashTestDocument.fields($0, maxFailures: $1) },
        replay: { (reproducer, saveProtocol) throws(SimulatorError) in try replay(reproducer, saveProtocol: saveProtocol) })

    /// What to run.
    public struct Configuration: Sendable {
        public var workload = BuiltInWorkloads.defaultName
        public var model: PersistenceModel = .pessimistic
        public var saveProtocol: ChromiumDesktopSaveProtocol = .chromium
        public var seed: UInt64 = 1
        public var maxStates = 2_000_000
        public var keptFailures = ExplorationOptions.defaultKeptFailures

        public init() {}
    }

    /// What a run found.
    public struct Report: Sendable {
        public var configuration: Configuration
        public var operations: Int
        /// Batches of commands that returned during the workload.
        public var saves: Int
        public var result: ExplorationResult
        /// How many explored states restored the latest batch, an older one, nothing, or bytes never written.
        public var outcomes: StoreOutcomes

        /// The reproducer of a failure, which `crash-test --replay` takes.
        public func reproducer(_ failure: FailureReport) -> Reproducer {
            ChromiumDesktopStoreCrashTest.reproducer(configuration, state: failure.state)
        }
    }

    public var configuration: Configuration

    public init(configuration: Configuration) { self.configuration = configuration }

    /// Plays the workload and judges every crash state; `progress` hears the states explored so far.
    public func run(progress: ((Int) -> Void)? = nil) throws(SimulatorError) -> Report {
        let run = try ChromiumDesktopStoreRun.record(WorkloadSource.load(configuration.workload), saveProtocol: configuration.saveProtocol)
        let recording = run.recording
        let (result, outcomes) = StoreExploration.judgeEveryState(
            recording, judge: ChromiumDesktopStoreJudge(run: run), model: configuration.model, seed: configuration.seed,
            maxStates: configuration.maxStates, keptFailures: configuration.keptFailures, progress: progress)
        return Report(
            configuration: configuration, operations: recording.operations.count, saves: run.saves.count, result: result,
            outcomes: outcomes)
    }

    /// The reproducer of `state` in a run of `configuration`.
    static func reproducer(_ configuration: Configuration, state: CrashState) -> Reproducer {
        var reproducer = Reproducer(
            workload: configuration.workload, model: configuration.model, writeProtocol: .safe, seed: configuration.seed, state: state)
        reproducer.store = BrowserStore(model: model, protocolName: configuration.saveProtocol.rawValue)
        return reproducer
    }

    /// Judges the one state of a `store=chromium-desktop` reproducer.
    static func replay(_ reproducer: Reproducer, saveProtocol: ChromiumDesktopSaveProtocol) throws(SimulatorError) -> Replayer.Outcome {
        let run = try ChromiumDesktopStoreRun.record(WorkloadSource.load(reproducer.workload), saveProtocol: saveProtocol)
        return try StoreExploration.replay(
            reproducer, recording: run.recording, judge: ChromiumDesktopStoreJudge(run: run),
            launch:
                "a state of the chromium-desktop store has no recovery-crash=: it is judged by what Chrome restores before its launch deletes a file"
        )
    }
}
