import FileSystemKit
import SessionForensics
import SessionFormats
import SessionModel
@_spi(CrashTesting) import SessionStore

/// Recovery as the store runs it at launch: `SessionService.launch` (the `RecoveryPolicy`, with
/// the settling of interrupted sessionctl commands that sessionctl supplies, then restore of
/// every session with Chrome's loading semantics, then the running marker), on a virtual clock
/// at a fixed time, with the write protocol under test (the store that crashed is the store that
/// recovers).
public struct StoreRecoveryRunner: RecoveryRunner {
    /// The protocol the store recovers with.
    @_spi(CrashTesting) public var writeProtocol: WriteProtocol

    /// A runner whose store recovers with every promise kept (`WriteProtocol.safe`).
    public init() { self.init(writeProtocol: .safe) }

    /// A runner whose store recovers with `writeProtocol`, flaws included.
    @_spi(CrashTesting) public init(writeProtocol: WriteProtocol) { self.writeProtocol = writeProtocol }

    /// What the store's launch settles besides its own steps, wherever crash-test runs it:
    /// interrupted sessionctl commands, as an app sharing its profile with sessionctl settles them.
    static let settling: [any LaunchSettling] = [InterruptedCommandSettling()]

    /// The time recovery runs at (after every workload's events).
    static let launchTime = Timestamp(unixMicroseconds: 1_798_761_600_000_000)

    public func recover(fileSystem: ModelFileSystem, profile: String) throws -> RecoveryOutcome {
        try StoreRecoveryRunner.recover(on: fileSystem, profile: profile, writeProtocol: writeProtocol)
    }

    /// The midpoint is between `SessionService.beginLaunch` and `PendingLaunch.finish()`: the
    /// digest is of the first stage's report and the launch time, all that the rest carries over
    /// (the write protocol, crash-loop limit and group ids are this runner's, the same every run).
    public func recover(
        fileSystem: ModelFileSystem, profile: String,
        resume: (_ digest: UInt64) -> Result<RecoveryOutcome, any Error>?
    ) throws -> RecoveryOutcome {
        let pending = try StoreRecoveryRunner.beginLaunch(on: fileSystem, profile: profile, writeProtocol: writeProtocol)
        if let digest = StoreRecoveryRunner.digest(pending), let answer = resume(digest) { return try answer.get() }
        return StoreRecoveryRunner.outcome(of: try pending.finish().launchReport)
    }

    /// A digest of what the first stage of a launch hands the rest: every field of its report and
    /// the launch time; nil when the report holds sessions (the first stage never restores or sets
    /// aside one, so a report that does is not one this digest was written for).
    static func digest(_ pending: SessionService.PendingLaunch) -> UInt64? {
        let report = pending.report
        guard report.restored.isEmpty, report.setAside.isEmpty else { return nil }
        var digest = ContentHash.of("\(report.previousExit.rawValue) \(report.consecutiveRestoreCrashes) \(report.crashLoopGuardTriggered)")
        digest = ContentHash.combine(digest, UInt64(bitPattern: pending.now.microseconds))
        for lines in [report.removedTemporaryFiles, report.completedManifests, report.settledCommands] {
            digest = ContentHash.combine(digest, UInt64(lines.count))
            for line in lines { digest = ContentHash.combine(digest, ContentHash.of(line)) }
        }
        return digest
    }

    /// Launches the store, keeping every promise, on `profile` of any file system.
    public static func recover(on fileSystem: any FileSystem, profile: String) throws -> RecoveryOutcome {
        try recover(on: fileSystem, profile: profile, writeProtocol: .safe)
    }

    /// Launches the store on `profile` of any file system (the real one, for the kill loop).
    @_spi(CrashTesting) public static func recover(
        on fileSystem: any FileSystem, profile: String, writeProtocol: WriteProtocol
    ) throws -> RecoveryOutcome {
        outcome(of: try beginLaunch(on: fileSystem, profile: profile, writeProtocol: writeProtocol).finish().launchReport)
    }

    /// The first stage of the store's launch, as recovery runs it.
    private static func beginLaunch(
        on fileSystem: any FileSystem, profile: String,
        writeProtocol: WriteProtocol
    ) throws(FileSystemError) -> SessionService.PendingLaunch {
        let groups = GroupIDSequence(high: 0x7265_636F_7665_7279)
        let options = SessionService.Options(settling: StoreRecoveryRunner.settling, writeProtocol: writeProtocol)
        return try SessionService.beginLaunch(
            profile: profile, fileSystem: fileSystem, clock: VirtualClock(start: launchTime),
            options: options, groupIDs: { groups.next() })
    }

    /// What the oracles need from a launch report.
    static func outcome(of report: LaunchReport) -> RecoveryOutcome {
        var restored: [String: UInt64] = [:]
        for session in report.restored {
            // Compared only within one process (first and second recovery of a state).
            restored[session.key.description] = UInt64(bitPattern: Int64(session.outcome.session?.hashValue ?? 0))
        }
        let changes =
            report.setAside.map { "set aside \($0.key) to \($0.path)" }
            + report.removedTemporaryFiles.map { "removed \($0)" }
            + report.completedManifests.map { "completed \($0)" }
            + report.settledCommands
        var setAside: [String: String] = [:]
        for entry in report.setAside {
            setAside[entry.path] = ProfileLayout.sessionDirectory(entry.key.id, incognito: entry.key.incognito)
        }
        return RecoveryOutcome(
            detectedCrash: report.previousExit == .unclean || report.previousExit == .crashDuringRestore,
            restored: restored, changes: changes, setAside: setAside, account: RestoreCrashAccount(report))
    }
}

/// Deterministic tab group ids: a fixed high word and a counter.
final class GroupIDSequence {
    private let high: UInt64
    private var low: UInt64 = 0

    init(high: UInt64) { self.high = high }

    func next() -> TabGroupID {
        low += 1
        return TabGroupID(high: high, low: low)
    }
}
