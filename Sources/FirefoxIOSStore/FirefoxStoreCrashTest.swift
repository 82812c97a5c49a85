@_spi(CrashTesting) import CrashSimulator
import FileSystemKit
import FirefoxIOS
import Foundation
import SessionFormats
import SessionModel
@_spi(CrashTesting) import SessionStore

/// `crash-test --store firefox-ios`: a workload played on the model of Firefox for iOS's tab store,
/// then every crash state of its writes under the persistence model judged by what Firefox loads
/// at the next launch (`FirefoxStoreJudge`).
public struct FirefoxStoreCrashTest: Sendable {
    /// The store's name on the command line and in reproducers.
    public static let storeName = FirefoxIOSFamily().name

    /// The store as crash-test's registry lists it (`BrowserStores`).
    public static let model = StoreModel(
        FirefoxStoreCrashTest.self, name: storeName, defaultProtocol: .firefox, fields: { CrashTestDocument.fields($0, maxFailures: $1) },
        replay: { (reproducer, saveProtocol) throws(SimulatorError) in try replay(reproducer, saveProtocol: saveProtocol) })

    /// What to run.
    public struct Configuration: Sendable {
        public var workload = BuiltInWorkloads.defaultName
        public var model: PersistenceModel = .pessimistic
        public var saveProtocol: FirefoxSaveProtocol = .firefox
        public var seed: UInt64 = 1
        public var maxStates = 2_000_000
        public var keptFailures = ExplorationOptions.defaultKeptFailures

        public init() {}
    }
    /// How many states restored each way.
    public typealias Outcomes = StoreOutcomes

    /// What a run found.
    public struct Report: Sendable {
        public var configuration: Configuration
        public var operations: Int
        /// Saves that returned during the workload.
        public var saves: Int
        public var result: ExplorationResult
        public var outcomes: Outcomes

        /// The reproducer of a failure, which `crash-test --replay` takes.
        public func reproducer(_ failure: FailureReport) -> Reproducer {
            FirefoxStoreCrashTest.reproducer(configuration, state: failure.state)
        }
    }

    public var configuration: Configuration

    public init(configuration: Configuration) { self.configuration = configuration }

    /// Plays the workload and judges every crash state; `progress` hears the states explored so far.
    public func run(progress: ((Int) -> Void)? = nil) throws(SimulatorError) -> Report {
        let run = try FirefoxStoreRun.record(WorkloadSource.load(configuration.workload), saveProtocol: configuration.saveProtocol)
        let recording = run.recording
        let (result, outcomes) = StoreExploration.judgeEveryState(
            recording, judge: FirefoxStoreJudge(run: run), model: configuration.model, seed: configuration.seed,
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

    /// Judges the one state of a `store=firefox-ios` reproducer.
    static func replay(_ reproducer: Reproducer, saveProtocol: FirefoxSaveProtocol) throws(SimulatorError) -> Replayer.Outcome {
        let run = try FirefoxStoreRun.record(WorkloadSource.load(reproducer.workload), saveProtocol: saveProtocol)
        return try StoreExploration.replay(
            reproducer, recording: run.recording, judge: FirefoxStoreJudge(run: run),
            launch: "Firefox's launch writes nothing: a state of its store has no recovery-crash=")
    }
}
