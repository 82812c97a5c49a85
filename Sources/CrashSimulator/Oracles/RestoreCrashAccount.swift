import FileSystemKit
import SessionStore

/// How a launch accounts for crashes during restore, the count the crash-loop guard goes by:
/// `LaunchReport.previousExit`, `consecutiveRestoreCrashes` and `crashLoopGuardTriggered`.
///
/// `expected(finding:limit:)` and `afterCrash(inLaunchFinding:limit:)` state the store's rule
/// (`RecoveryPolicy.beginLaunch`) apart from the store, from the marker alone: a launch that finds
/// the marker of a restore in progress counts one more crash than that marker holds; the guard
/// triggers when the count reaches the limit, and the restore the launch then marks starts the
/// count again.
public struct RestoreCrashAccount: Sendable, Hashable, CustomStringConvertible {
    /// How the launch says the previous run ended.
    public var previousExit: LaunchReport.PreviousExit
    /// Consecutive crashes during restore, the one the launch follows included.
    public var consecutive: Int
    /// Whether the crash-loop guard set every session aside.
    public var guardTriggered: Bool

    public init(previousExit: LaunchReport.PreviousExit, consecutive: Int, guardTriggered: Bool) {
        self.previousExit = previousExit
        self.consecutive = consecutive
        self.guardTriggered = guardTriggered
    }

    /// What a launch report says.
    init(_ report: LaunchReport) {
        self.init(
            previousExit: report.previousExit, consecutive: report.consecutiveRestoreCrashes,
            guardTriggered: report.crashLoopGuardTriggered)
    }

    /// `unclean, 0 consecutive crashes during restore, guard not triggered`.
    public var description: String {
        "\(previousExit.rawValue), \(consecutive) consecutive crash\(consecutive == 1 ? "" : "es") during restore, guard \(guardTriggered ? "triggered" : "not triggered")"
    }

    /// Whether the launch counted a crash during restore.
    var countsRestoreCrash: Bool { previousExit == .crashDuringRestore }

    /// The crash-loop limit of the store as the simulator runs it.
    static let limit = SessionService.Options().crashLoopLimit

    /// The account of a launch that finds `marker` (nil: no marker file; a marker that does not
    /// parse is one of a running app, as the store reads it).
    static func expected(finding marker: RecoveryMarker?, limit: Int = limit) -> RestoreCrashAccount {
        guard let marker else { return RestoreCrashAccount(previousExit: .unknown, consecutive: 0, guardTriggered: false) }
        switch marker.state {
        case .clean: return RestoreCrashAccount(previousExit: .clean, consecutive: 0, guardTriggered: false)
        case .running: return RestoreCrashAccount(previousExit: .unclean, consecutive: 0, guardTriggered: false)
        case .restoring:
            let count = marker.restoreCrashes + 1
            return RestoreCrashAccount(previousExit: .crashDuringRestore, consecutive: count, guardTriggered: count >= limit)
        }
    }

    /// The account of the launch after one that found `marker` and crashed while restoring: one
    /// crash more than that launch counted, or one when its guard triggered (and reset the count).
    static func afterCrash(inLaunchFinding marker: RecoveryMarker?, limit: Int = limit) -> RestoreCrashAccount {
        let interrupted = expected(finding: marker, limit: limit)
        let count = (interrupted.guardTriggered ? 0 : interrupted.consecutive) + 1
        return RestoreCrashAccount(previousExit: .crashDuringRestore, consecutive: count, guardTriggered: count >= limit)
    }

    /// The marker file in the profile at `profile` of `tree`, read as the store reads it: nil when
    /// there is none, a running app's when it does not parse.
    static func marker(in tree: ModelTree, profile: String) -> RecoveryMarker? {
        let fileSystem = ModelFileSystem(tree: tree)
        var path = joinPath(profile, RecoveryMarker.fileName)
        // A marker whose replacement was torn away is its backup: the launch's sweep puts it back.
        if fileSystem.kind(of: path) == nil {
            path = joinPath(profile, AtomicWriter.backupName(of: RecoveryMarker.fileName))
            guard fileSystem.kind(of: path) != nil else { return nil }
        }
        guard let bytes = try? fileSystem.read(path), let marker = RecoveryMarker(bytes: bytes) else {
            return RecoveryMarker(state: .running)
        }
        return marker
    }
}
