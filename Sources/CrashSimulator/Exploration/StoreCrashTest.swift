import Foundation
@_spi(CrashTesting) import SessionStore

/// `crash-test --store NAME`: a workload played on the model of a browser's store, then every
/// crash state of its writes under the persistence model judged by what the browser loads at the
/// next launch (`Store.Judge`), the same run for every `CrashTestedStore`.
public struct StoreCrashTest<Store: CrashTestedStore>: Sendable {
    /// The store as crash-test's registry lists it (`BrowserStores`).
    public static var model: StoreModel<Store> { StoreModel() }

    /// What to run.
    public struct Configuration: Sendable {
        public var workload = BuiltInWorkloads.defaultName
        public var model: PersistenceModel = .pessimistic
        public var saveProtocol = Store.browserProtocol
        public var seed: UInt64 = 1
        public var maxStates = 2_000_000
        public var keptFailures = ExplorationOptions.defaultKeptFailures
        /// Whether the judge remembers its verdicts (off: every state judged anew).
        public var takesShortcuts = true

        public init() {}
    }

    /// What a run found.
    public struct Report: Sendable {
        public var configuration: Configuration
        public var operations: Int
        /// Saves that returned during the workload.
        public var saves: Int
        public var result: ExplorationResult
        /// How many explored states loaded the latest save, an older one, nothing, or bytes no save wrote.
        public var outcomes: StoreOutcomes

        /// The reproducer of a failure, which `crash-test --replay` takes.
        public func reproducer(_ failure: FailureReport) -> Reproducer {
            StoreCrashTest.reproducer(configuration, state: failure.state)
        }
    }

    public var configuration: Configuration

    public init(configuration: Configuration) { self.configuration = configuration }

    /// Plays the workload and judges every crash state; `progress` hears the states explored so far.
    public func run(progress: ((Int) -> Void)? = nil) throws(SimulatorError) -> Report {
        let run = try Store.record(WorkloadSource.load(configuration.workload), saveProtocol: configuration.saveProtocol)
        let judge = StoreVerdicts<Store.Judge>(run: run, takesShortcuts: configuration.takesShortcuts)
        let (result, outcomes) = StoreExploration.judgeEveryState(
            run.recording, judge: judge, model: configuration.model, seed: configuration.seed, maxStates: configuration.maxStates,
            keptFailures: configuration.keptFailures, progress: progress)
        return Report(
            configuration: configuration, operations: run.recording.operations.count, saves: run.saveEnds.count, result: result,
            outcomes: outcomes)
    }

    /// The reproducer of `state` in a run of `configuration`.
    static func reproducer(_ configuration: Configuration, state: CrashState) -> Reproducer {
        var reproducer = Reproducer(
            workload: configuration.workload, model: configuration.model, writeProtocol: .safe, seed: configuration.seed, state: state)
        reproducer.store = BrowserStore(model: model, protocolName: configuration.saveProtocol.rawValue)
        return reproducer
    }

    /// Judges the one state of a `store=NAME` reproducer.
    static func replay(_ reproducer: Reproducer, saveProtocol: Store.SaveProtocol) throws(SimulatorError) -> Replayer.Outcome {
        let run = try Store.record(WorkloadSource.load(reproducer.workload), saveProtocol: saveProtocol)
        return try StoreExploration.replay(
            reproducer, recording: run.recording, judge: StoreVerdicts<Store.Judge>(run: run, takesShortcuts: true),
            launch: Store.launchNote)
    }
}

extension CrashTestDocument {
    /// The fields of a run of a browser's store, listing at most `maxFailures` failures (all when nil).
    public static func fields<Store>(_ report: StoreCrashTest<Store>.Report, maxFailures: Int? = nil) -> Fields {
        let configuration = report.configuration
        return storeFields(
            browser: Store.name, workload: configuration.workload, model: configuration.model,
            saveProtocol: configuration.saveProtocol.rawValue, seed: configuration.seed, operations: report.operations,
            saves: report.saves, result: report.result, outcomes: report.outcomes, maxFailures: maxFailures, reproducer: report.reproducer)
    }
}
