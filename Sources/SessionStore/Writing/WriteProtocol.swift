/// How the `AtomicWriter` and the save reach the disk.
///
/// Only `.safe` keeps the store's promises. The others reproduce write protocols known to lose
/// data, so that a crash checker (`sessionctl crash-test --protocol NAME`) can prove it catches
/// them; an app never uses them. The type, and every initializer and property that takes or
/// gives one, is behind the `CrashTesting` SPI (`@_spi(CrashTesting) import SessionStore`): the
/// store's public API always writes with `.safe`.
@_spi(CrashTesting) public enum WriteProtocol: String, Sendable, CaseIterable {
    /// Temp file (O_EXCL), full write, fsync, rename, fsync of the directory; new directories made
    /// durable through their parents; closed tabs removed after the commit point, with fsyncs.
    case safe
    /// Truncates and rewrites the live file (with fsync): not atomic even if only the process dies.
    case inPlace = "in-place"
    /// Temp file and rename, but no fsync of anything.
    case noFsync = "no-fsync"
    /// What Foundation's atomic write does: fsync of the temp file, rename, no directory fsync.
    case foundationAtomic = "foundation-atomic"
    /// Chrome's own order: Foundation's atomic writes, and closed tabs' directories removed before
    /// the new session_metadata.pb is written.
    case chrome
    /// The safe protocol with temporary files named unlike the store's own (`<name>~tmp<n>`), so
    /// that what a crash leaves is not recognised and not cleaned: a checker that asked the store
    /// what its temporary names are would not see them.
    case strangeTemporaryNames = "strange-temp"
    /// The safe protocol, but a shutdown writes the clean-exit marker before its final save, so
    /// that a crash between the two is taken for a clean exit and the unsaved changes are lost
    /// without anyone noticing.
    case exitMarkerFirst = "exit-marker-first"
    /// The safe protocol, but closing the last incognito tab leaves the incognito session's files
    /// on disk (they are only rewritten by later saves).
    case noIncognitoWipe = "no-incognito-wipe"
    /// The safe protocol, but going to the background does not save while a delayed save is
    /// pending (leaving it to the timer, which iOS never lets fire once the app is suspended).
    case lazyBackground = "lazy-background"
    /// The safe protocol, but a save is acknowledged before it is committed.
    case earlyAcknowledgement = "early-ack"
    /// The safe protocol, but a session that Chrome's loading rules shorten is restored without a
    /// copy kept in `Backups/`: the tabs its next save rewrites away are gone for good.
    case noKeptCopy = "no-kept-copy"
    /// The safe protocol, but every change restarts the delayed save's timer (a debounce), so that
    /// changes less than the save delay apart keep putting the save off.
    case debouncedSave = "debounced-save"
    /// The safe protocol, but the hard-linked copy a set-aside makes is never fsynced before the
    /// live directory is removed: a power loss can keep the removal and lose the copy.
    case unsyncedSetAside = "unsynced-set-aside"
    /// The safe protocol, but the launch's sweep does not fsync the directory between putting a
    /// file back from its backup and removing the backup: a power loss inside recovery can keep
    /// the removal and lose the file.
    case unsyncedSweep = "unsynced-sweep"
    /// The safe protocol, but the backup link of a replaced file is not fsynced before the rename
    /// that replaces it: a power loss can lose the backup and tear the rename, leaving neither.
    case unsyncedBackup = "unsynced-backup"
    /// The safe protocol, but the launch's sweep removes every name of sessionctl's (`.sessionctl-*`),
    /// not only its writer's temporary and backup names: an interrupted command's intent record
    /// goes before the launch settles it.
    case broadSweep = "broad-sweep"
    /// The safe protocol, but a launch records that it restores (the marker a crash-loop guard
    /// counts by) only after it has cleaned up, set aside and kept copies of sessions: a crash in
    /// the middle of that is taken for a crash of a running app, and never counted.
    case uncountedLaunchCrash = "uncounted-launch-crash"
    /// The safe protocol, but a launch records that the app runs (the marker's `running`, which
    /// ends what the crash-loop guard counts) before it sets aside and restores the sessions: a
    /// crash during that restore is taken for a crash of a running app, so a session that crashes
    /// the app on every restore is never set aside.
    case earlyRunningMark = "early-running-mark"
    /// The safe protocol, but the copy kept of a session that Chrome's loading rules shorten is
    /// made as a set-aside: the session goes to `Backups/` whole and leaves the live profile, so
    /// its window no longer opens although Chrome would load it.
    case dropsBackedUpSession = "drops-backed-up-session"

    /// Whether file contents are fsynced before they count as written.
    var syncsFiles: Bool { self != .noFsync }
    /// Whether directories are fsynced after entries are added or removed.
    var syncsDirectories: Bool { self == .inPlace || keepsBackups }
    /// Whether a replaced file is kept as a backup (hard link) until its replacement is in place.
    var keepsBackups: Bool {
        [
            .safe, .strangeTemporaryNames, .exitMarkerFirst, .noIncognitoWipe, .lazyBackground, .earlyAcknowledgement, .noKeptCopy,
            .debouncedSave, .unsyncedSetAside, .unsyncedSweep, .unsyncedBackup, .broadSweep, .uncountedLaunchCrash,
            .earlyRunningMark, .dropsBackedUpSession
        ].contains(self)
    }
    /// Whether a launch records that it restores before it changes anything else.
    var marksRestoreFirst: Bool { self != .uncountedLaunchCrash }
    /// Whether a launch records that the app runs only once its sessions are set aside and restored.
    var marksRunningLast: Bool { self != .earlyRunningMark }
    /// Whether closed tabs' directories are removed before the commit point.
    var removesClosedTabsFirst: Bool { self == .chrome }
}
