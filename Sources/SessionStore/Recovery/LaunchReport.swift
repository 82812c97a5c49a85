import SessionFormats
import SessionModel

/// What a launch found on disk and did about it.
public struct LaunchReport: Sendable {
    /// How the previous run of the app ended, as the clean-exit marker tells.
    public enum PreviousExit: String, Sendable {
        /// No marker: the store never ran on this profile (or Chrome wrote it).
        case unknown
        /// The app exited cleanly (`SessionService.shutDown()`).
        case clean
        /// The app was running and did not exit cleanly (killed, crashed, power lost).
        case unclean
        /// The app crashed while restoring sessions.
        case crashDuringRestore
    }

    /// A session restored into a window.
    public struct RestoredSession: Sendable {
        /// Which session.
        public var key: SessionKey
        /// Chrome's loading outcome for it (dropped tabs, adjustments, entries Chrome would delete).
        public var outcome: ChromeLoadSemantics.Outcome
    }

    /// How the previous run ended.
    public var previousExit: PreviousExit = .unknown
    /// Consecutive crashes during restore, this launch's included when it follows one.
    public var consecutiveRestoreCrashes = 0
    /// True when the crash-loop guard set every session aside instead of restoring it.
    public var crashLoopGuardTriggered = false
    /// Sessions restored, regular first.
    public var restored: [RestoredSession] = []
    /// Sessions moved to `Backups/` instead of restored.
    public var setAside: [SetAsideEntry] = []
    /// Interrupted set-asides finished or undone now: an entry path (relative to the profile) whose
    /// manifest was written, or a path followed by what was done, in parentheses.
    public var completedManifests: [String] = []
    /// Temporary files of interrupted writes that were removed (paths relative to the profile).
    public var removedTemporaryFiles: [String] = []
    /// What interrupted runs of other tools left, settled by the launch's `LaunchSettling` steps,
    /// one line each (nothing when the launch was given none).
    public var settledCommands: [String] = []

    public init() {}
}
