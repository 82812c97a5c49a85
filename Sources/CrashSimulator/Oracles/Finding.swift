/// The properties every crash state must have (docs/crash-simulation.md, the oracles).
public enum OracleKind: String, Sendable, CaseIterable, Comparable {
    /// Every session the loader accepts is one some save produced; no file is half-written.
    case atomicity
    /// Once a save is acknowledged, the restored state is that one or newer.
    case durability
    /// Chrome's loader would not drop or delete any tab of the restored state.
    case collateralLoss
    /// Every session Chrome would load is still live after recovery, whatever `Backups/` holds.
    case liveSessions
    /// After an acknowledged close-all-incognito, no incognito URL or title remains on disk.
    case privacy
    /// Recovery detects the crash, is idempotent, and survives a crash of its own.
    case recovery
    /// A crash while a launch restores is counted toward the crash-loop guard by the next launch.
    case crashLoopCount
    /// Temporary files are never loaded as sessions and are cleaned up.
    case hygiene
    /// (`--command`) Every tab readable before the command stays readable: live, or set aside in
    /// an entry whose manifest verifies.
    case tabsKept
    /// (`--command` compress, decompress and report) The command's input is left as it was,
    /// names and bytes.
    case inputKept
    /// (`--command`) Running the command again after the crash gives what an uninterrupted run gives.
    case convergence
    /// (`--exec`) The user's checker finds the crash state consistent (it exits 0).
    case checker
    /// (`--exec`) The user's checker failed on the state (an exit status other than 0 and 1, or no answer).
    case checkerError = "checker-error"

    public static func < (lhs: OracleKind, rhs: OracleKind) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// One violated property of one crash state, with a person-readable explanation.
public struct Finding: Sendable, Hashable {
    public var oracle: OracleKind
    public var message: String

    public init(_ oracle: OracleKind, _ message: String) {
        self.oracle = oracle
        self.message = message
    }
}

/// How the store's recovery and restore went on a crash state: the only things the oracles need
/// from the store's side.
public struct RecoveryOutcome: Sendable, Equatable {
    /// Whether recovery found that the previous run did not exit cleanly.
    public var detectedCrash: Bool
    /// A fingerprint per restored session key (`id` or `OTR/id`) of what was restored.
    public var restored: [String: UInt64]
    /// What recovery changed on disk, one line each (set aside, temporary file removed, ...).
    public var changes: [String]
    /// The sessions recovery set aside: each entry's path to the directory it was set aside from
    /// (both relative to the profile), for the oracle that checks the entry holds all of it.
    public var setAside: [String: String]
    /// How the launch accounted for crashes during restore (nil: the runner does not say).
    public var account: RestoreCrashAccount?

    public init(
        detectedCrash: Bool, restored: [String: UInt64], changes: [String], setAside: [String: String] = [:],
        account: RestoreCrashAccount? = nil
    ) {
        self.detectedCrash = detectedCrash
        self.restored = restored
        self.changes = changes
        self.setAside = setAside
        self.account = account
    }
}

/// Runs the store's recovery and restore (what a launch does before the app shows its windows).
public protocol RecoveryRunner: Sendable {
    /// Runs recovery on the profile at `profile` of `fileSystem`, as the next launch would.
    func recover(fileSystem: ModelFileSystem, profile: String) throws -> RecoveryOutcome

    /// Runs recovery as `recover(fileSystem:profile:)` does, calling `resume` once between its
    /// first stage and the rest with a digest of everything the first stage hands the rest besides
    /// the file system; when `resume` answers, its answer is the outcome and the rest is not run.
    /// By default there is no midpoint: `resume` is never called.
    func recover(
        fileSystem: ModelFileSystem, profile: String,
        resume: (_ digest: UInt64) -> Result<RecoveryOutcome, any Error>?
    ) throws -> RecoveryOutcome
}

extension RecoveryRunner {
    public func recover(
        fileSystem: ModelFileSystem, profile: String,
        resume: (_ digest: UInt64) -> Result<RecoveryOutcome, any Error>?
    ) throws -> RecoveryOutcome {
        try recover(fileSystem: fileSystem, profile: profile)
    }
}
