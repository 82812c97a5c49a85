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
    /// Whether the judge remembers its verdicts (`--no-shortcuts`: every state judged anew).
    public var takesShortcuts = true

    public init() {}
}

/// The store model of a `CrashTestedStore`: what its module's line of the registry lists.
public struct StoreModel<Store: CrashTestedStore>: BrowserStoreModel {
    public init() {}

    public var name: String { Store.name }
    public var protocolNames: [String] { Store.SaveProtocol.allCases.map(\.rawValue) }
    public var defaultProtocol: String { Store.browserProtocol.rawValue }

    private func saveProtocol(_ name: String) throws(SimulatorError) -> Store.SaveProtocol {
        guard let saveProtocol = Store.SaveProtocol(rawValue: name) else {
            throw .invalidReproducer(name, reason: "protocol= is not one of \(protocolNames.joined(separator: ", "))")
        }
        return saveProtocol
    }

    public func run(
        protocolName: String, settings: StoreRunSettings, progress: ((Int) -> Void)?
    ) throws(SimulatorError)
        -> CrashTestDocument.Fields
    {
        var configuration = StoreCrashTest<Store>.Configuration()
        configuration.saveProtocol = try saveProtocol(protocolName)
        configuration.workload = settings.workload
        configuration.model = settings.model
        configuration.seed = settings.seed
        configuration.maxStates = settings.maxStates
        configuration.keptFailures = settings.keptFailures
        configuration.takesShortcuts = settings.takesShortcuts
        let report = try StoreCrashTest<Store>(configuration: configuration).run(progress: progress)
        return CrashTestDocument.fields(report, maxFailures: settings.maxFailures)
    }

    public func replay(_ reproducer: Reproducer, protocolName: String) throws(SimulatorError) -> Replayer.Outcome {
        try StoreCrashTest<Store>.replay(reproducer, saveProtocol: try saveProtocol(protocolName))
    }
}
