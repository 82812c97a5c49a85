/// A browser's store as `crash-test --store NAME` explores it: its save protocols, a recorded run
/// of a workload on its model, and a judge of that run's crash states. A browser's store module
/// conforms one type and lists `StoreCrashTest<ThatType>.model` in the registry; the run, the
/// report, reproducers, replay and the document are `StoreCrashTest`'s, the same for every store.
public protocol CrashTestedStore: Sendable {
    /// How the model writes: the browser's own protocol and its variants.
    associatedtype SaveProtocol: RawRepresentable<String> & CaseIterable & Sendable & Hashable
    /// A recorded run of a workload.
    associatedtype Run: StoreRun
    /// The judge of a state of `Run`.
    associatedtype Judge: StoreStateJudge where Judge.Run == Run

    /// The store's name on the command line and in reproducers (its family's name).
    static var name: String { get }
    /// The protocol the browser writes with, what a run takes when none is named.
    static var browserProtocol: SaveProtocol { get }
    /// Why a state of the store has no crash during recovery (`recovery-crash=`): what replay
    /// says of a reproducer that names one.
    static var launchNote: String { get }
    /// Plays `workload` under `saveProtocol` on an empty profile of the model, recorded.
    static func record(_ workload: Workload, saveProtocol: SaveProtocol) throws(SimulatorError) -> Run
}

/// One uninterrupted run of a workload on a store's model: its recording, and where each save
/// that returned ended.
public protocol StoreRun: Sendable {
    /// The file operations and acknowledgements the crash states are made of.
    var recording: Recording { get }
    /// The number of operations done when each save returned, in order.
    var saveEnds: [Int] { get }
}

/// A judge of a crash state of a store's run, by what its browser loads at the next launch
/// against the saves that had returned. `StoreVerdicts` remembers its verdicts (`Memo`); the judge
/// itself judges every state it is given anew.
public protocol StoreStateJudge: AnyObject {
    associatedtype Run: StoreRun
    /// The judge of states of `run`; `takesShortcuts` false when every answer it remembers of its
    /// own (decoded files) must be computed afresh.
    init(run: Run, takesShortcuts: Bool)
    /// The findings and outcome of `tree`, crashed after `crashPoint` operations, when the first
    /// `returned` saves had returned.
    func judge(_ tree: ModelTree, crashPoint: Int, returned: Int) -> (findings: [Finding], outcome: StoreOutcome)
}
