/// One browser's session store as crash-test models it: its name, its save protocols, a run of a
/// workload on it explored state by state, and the replay of one state of a reproducer.
public protocol BrowserStoreModel: Sendable {
    /// Its name, as `--store` and a reproducer's `store=` give it (its family's name).
    var name: String { get }
    /// The names of its save protocols.
    var protocolNames: [String] { get }
    /// The protocol its browser writes with, what a run takes when none is named.
    var defaultProtocol: String { get }
    /// Runs `settings`' workload on the store written with `protocolName` and explores its crash
    /// states; the document of the run.
    func run(
        protocolName: String, settings: StoreRunSettings, progress: ((Int) -> Void)?
    ) throws(SimulatorError)
        -> CrashTestDocument.Fields
    /// Records the reproducer's workload on the store written with `protocolName` and checks its one state.
    func replay(_ reproducer: Reproducer, protocolName: String) throws(SimulatorError) -> Replayer.Outcome
}

/// What a run of a store's crash test takes from the command line.
public struct StoreRunSettings: Sendable {
    public var workload = "typical"
    public var model = PersistenceModel.pessimistic
    public var seed: UInt64 = 1
    public var maxStates = 0
    public var keptFailures = ExplorationOptions.defaultKeptFailures
    /// How many failures the document lists (nil: all kept).
    public var maxFailures: Int?

    public init() {}
}

/// A store model made of a crash test type, how its report becomes a document, and its replay:
/// what each browser's store declares beside its crash test.
public struct StoreModel<Test: BrowserStoreCrashTest>: BrowserStoreModel
where Test.Configuration.SaveProtocol: RawRepresentable<String> & CaseIterable & Sendable {
    public let name: String
    let defaultSaveProtocol: Test.Configuration.SaveProtocol
    let fields: @Sendable (Test.Report, Int?) -> CrashTestDocument.Fields
    let replaying: @Sendable (Reproducer, Test.Configuration.SaveProtocol) throws(SimulatorError) -> Replayer.Outcome

    public init(
        _: Test.Type, name: String, defaultProtocol: Test.Configuration.SaveProtocol,
        fields: @escaping @Sendable (Test.Report, Int?) -> CrashTestDocument.Fields,
        replay: @escaping @Sendable (Reproducer, Test.Configuration.SaveProtocol) throws(SimulatorError) -> Replayer.Outcome
    ) {
        self.name = name
        self.defaultSaveProtocol = defaultProtocol
        self.fields = fields
        self.replaying = replay
    }

    public var protocolNames: [String] { Test.Configuration.SaveProtocol.allCases.map(\.rawValue) }
    public var defaultProtocol: String { defaultSaveProtocol.rawValue }

    private func saveProtocol(_ name: String) throws(SimulatorError) -> Test.Configuration.SaveProtocol {
        guard let saveProtocol = Test.Configuration.SaveProtocol(rawValue: name) else {
            throw .invalidReproducer(name, reason: "protocol= is not one of \(protocolNames.joined(separator: ", "))")
        }
        return saveProtocol
    }

    public func run(
        protocolName: String, settings: StoreRunSettings, progress: ((Int) -> Void)?
    ) throws(SimulatorError)
        -> CrashTestDocument.Fields
    {
        var configuration = Test.Configuration()
        configuration.saveProtocol = try saveProtocol(protocolName)
        configuration.workload = settings.workload
        configuration.model = settings.model
        configuration.seed = settings.seed
        configuration.maxStates = settings.maxStates
        configuration.keptFailures = settings.keptFailures
        return fields(try Test(configuration: configuration).run(progress: progress), settings.maxFailures)
    }

    public func replay(_ reproducer: Reproducer, protocolName: String) throws(SimulatorError) -> Replayer.Outcome {
        try replaying(reproducer, try saveProtocol(protocolName))
    }
}

/// A crash test of one browser's store: its configuration, run, and report.
public protocol BrowserStoreCrashTest {
    associatedtype Configuration: BrowserStoreRunOptions
    associatedtype Report
    init(configuration: Configuration)
    func run(progress: ((Int) -> Void)?) throws(SimulatorError) -> Report
}

/// The options every browser store's run takes, its save protocol among them.
public protocol BrowserStoreRunOptions {
    associatedtype SaveProtocol
    init()
    var saveProtocol: SaveProtocol { get set }
    var workload: String { get set }
    var model: PersistenceModel { get set }
    var seed: UInt64 { get set }
    var maxStates: Int { get set }
    var keptFailures: Int { get set }
}
