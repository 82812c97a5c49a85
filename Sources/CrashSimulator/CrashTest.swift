@_spi(CrashTesting) import SessionStore

/// A whole `crash-test` run in the simulated mode: load the workload, record it against the store
/// with the chosen write protocol, explore its crash states under the chosen model.
public struct CrashTest: Sendable {
    /// What to run.
    public struct Configuration: Sendable {
        /// A built-in workload's name or a workload file's path.
        public var workload: String = BuiltInWorkloads.defaultName
        /// A profile directory the workload starts from (a copy of it), instead of an empty profile.
        public var startingProfile: String?
        public var model: PersistenceModel = .pessimistic
        @_spi(CrashTesting) public var writeProtocol: WriteProtocol = .safe
        public var exploration = ExplorationOptions()

        public init() {}
    }

    /// What a run found.
    public struct Report: Sendable {
        public var configuration: Configuration
        public var operations: Int
        public var acknowledgements: Int
        public var result: ExplorationResult
        /// Tabs of the starting profile that Chrome's own loading rules take away, each with its
        /// rule: allowed losses, once recovery keeps a copy of their session (`StartingFacts`).
        public var chromeRuleLosses: [String] = []

        /// The reproducer of a failure.
        public func reproducer(_ failure: FailureReport) -> Reproducer {
            Reproducer(
                workload: configuration.workload, startingProfile: configuration.startingProfile, model: configuration.model,
                writeProtocol: configuration.writeProtocol, seed: configuration.exploration.seed, state: failure.state)
        }
    }

    public var configuration: Configuration
    public var runner: any RecoveryRunner

    /// A crash test; recovery is the store's, with the configuration's protocol, unless `runner` is given.
    public init(configuration: Configuration, runner: (any RecoveryRunner)? = nil) {
        self.configuration = configuration
        self.runner = runner ?? StoreRecoveryRunner(writeProtocol: configuration.writeProtocol)
    }

    /// Records the workload (a few milliseconds to seconds, depending on its size).
    public func record() throws(SimulatorError) -> Recording {
        let workload = try WorkloadSource.load(configuration.workload)
        return try WorkloadRecorder(writeProtocol: configuration.writeProtocol).record(
            workload, startingProfile: configuration.startingProfile)
    }

    /// Records and explores; `progress` hears the number of states explored so far.
    public func run(progress: ((Int) -> Void)? = nil) throws(SimulatorError) -> Report {
        try run(reporting: progress.map { report in { report($0.explored) } })
    }

    /// Records and explores; `reporting` hears how far the exploration is, a few times a second.
    public func run(reporting: ((Explorer.Progress) -> Void)?) throws(SimulatorError) -> Report {
        let recording = try record()
        var options = configuration.exploration
        options.model = configuration.model
        let result = Explorer(recording: recording, runner: runner, options: options).run(reporting: reporting)
        var report = Report(
            configuration: configuration, operations: recording.operations.count,
            acknowledgements: recording.acknowledgements.count, result: result)
        report.chromeRuleLosses = recording.starting.chromeRuleLosses
        return report
    }
}
