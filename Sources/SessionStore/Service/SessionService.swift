import FileSystemKit
import SessionFormats
import SessionModel

/// Keeps a profile's windows saved: the save policy of Chrome for iOS, made crash-safe.
///
/// Every change to a window (a tab inserted, closed, moved, replaced, activated, pinned, grouped,
/// or a navigation committed) marks the window dirty and starts a one-shot timer of `saveDelay`
/// (2.5 s); later changes do not extend it. `sceneDidEnterBackground()` and
/// `sceneDidDisconnect(_:)` save at once and cancel the timer. A save writes the dirty tabs'
/// data.pb, then session_metadata.pb as the commit point, then removes the directories of closed
/// tabs, every file through the `AtomicWriter` on the injected `FileSystem`. Closing the last
/// incognito tab removes every incognito file at once. Each completed save is reported to
/// `onSave` with what it made durable.
///
/// Launching (`SessionService.launch`) runs the `RecoveryPolicy` and restores every session of the
/// profile with Chrome's loading semantics, tabs unrealized. Use the service and its model from one
/// thread (the main thread in an app); saves run synchronously inside the timer callback or the
/// lifecycle call, never inside a tab change.
///
/// ```swift
/// let clock = VirtualClock()
/// let service = try SessionService.launch(profile: "/path/to/Default", clock: clock)
/// let window = try service.openWindow()
/// window.openTab(url: "https://example.org/", title: "Example")
/// clock.advance(by: .seconds(3))          // the delayed save runs here
/// service.sceneDidEnterBackground()       // or at once
/// ```
public final class SessionService {
    /// Settings of the save policy and of recovery.
    public struct Options: Sendable {
        /// Delay of the one-shot save after the first change (Chrome: 2.5 s).
        public var saveDelay: Duration
        /// Consecutive crashes during restore after which sessions are set aside instead of restored.
        public var crashLoopLimit: Int
        /// What the launch settles for other tools that write the profile, after its own
        /// recovery steps (see `LaunchSettling`); none by default.
        public var settling: [any LaunchSettling]
        /// How files reach the disk: `.safe`, unless a crash checker proves it catches a flawed one.
        @_spi(CrashTesting) public var writeProtocol: WriteProtocol

        /// Options that write with every promise kept (`WriteProtocol.safe`).
        public init(saveDelay: Duration = .milliseconds(2500), crashLoopLimit: Int = 2, settling: [any LaunchSettling] = []) {
            self.init(saveDelay: saveDelay, crashLoopLimit: crashLoopLimit, settling: settling, writeProtocol: .safe)
        }

        /// Options that write as `writeProtocol` says, flaws included.
        @_spi(CrashTesting) public init(
            saveDelay: Duration = .milliseconds(2500), crashLoopLimit: Int = 2, settling: [any LaunchSettling] = [],
            writeProtocol: WriteProtocol
        ) {
            self.saveDelay = saveDelay
            self.crashLoopLimit = crashLoopLimit
            self.settling = settling
            self.writeProtocol = writeProtocol
        }
    }

    /// The runtime model: windows and tabs of both sides of the profile.
    public let profile: Profile
    /// What the launch found and did (recovery, restored and set-aside sessions).
    public internal(set) var launchReport: LaunchReport
    /// The save delay, crash-loop limit and launch settling in force.
    public let options: Options
    /// Every file operation goes through this writer and its file system.
    public let writer: AtomicWriter
    /// Called after every completed save, with what it made durable.
    public var onSave: ((SaveRecord) -> Void)?
    /// Called when a save fails; its changes are kept and saved again later.
    public var onSaveFailure: ((SaveFailure) -> Void)?

    /// Changes not yet saved, per window.
    struct PendingChanges {
        var browser: Browser
        var metadata = false
        var dirtyTabs: Set<TabID> = []
        var closedTabs: Set<TabID> = []
    }

    var pending: [SessionKey: PendingChanges] = [:]
    var timer: (any ScheduledCall)?
    /// Tab directories found unreferenced at launch, removed by each window's next save.
    var orphanTabs: [SessionKey: Set<TabID>] = [:]
    private(set) var sequence = 0
    /// Set when removing the incognito side failed: the next save tries again.
    var incognitoPurgePending = false

    init(profile: Profile, writer: AtomicWriter, options: Options, launchReport: LaunchReport) {
        self.profile = profile
        self.writer = writer
        self.options = options
        self.launchReport = launchReport
    }

    /// The file system the store writes through.
    public var fileSystem: any FileSystem { writer.fileSystem }

    /// True while a delayed save is scheduled.
    public var isSaveScheduled: Bool { timer != nil }

    /// True when some window has changes that are not saved yet.
    public var hasUnsavedChanges: Bool { !pending.isEmpty }

    // MARK: Windows

    /// The window of a session: the one already open, else the one restored from disk, else a new
    /// empty one.
    ///
    /// A session on disk that Chrome would not load is set aside first (to `Backups/`), never
    /// opened empty and overwritten; when setting it aside fails, this throws and opens nothing.
    @discardableResult
    public func openWindow(_ sessionID: SessionID = Session.syntheticIdentifier, incognito: Bool = false) throws(FileSystemError) -> Browser
    {
        if let browser = profile.browser(for: sessionID, incognito: incognito) { return browser }
        let key = SessionKey(id: sessionID, incognito: incognito)
        if let restored = try restoreWindow(key) { return restored }
        let browser = profile.openBrowser(sessionID, incognito: incognito)
        browser.tabs.addObserver(self)
        return browser
    }

    // MARK: Lifecycle

    /// The app went to the background: saves every dirty window now and cancels the delayed save.
    public func sceneDidEnterBackground() {
        // The deliberately flawed policy, for a crash checker to prove it notices.
        if options.writeProtocol == .lazyBackground, timer != nil { return }
        save(.background)
    }

    /// A scene disconnected: saves every dirty window now, cancels the delayed save, and closes the
    /// window in memory (its session stays on disk; `openWindow` restores it again).
    public func sceneDidDisconnect(_ browser: Browser) {
        save(.disconnect)
        browser.tabs.removeObserver(self)
        profile.state(incognito: browser.incognito).browsers.remove(browser)
    }

    /// Saves every dirty window now and cancels the delayed save.
    public func saveNow() { save(.explicit) }

    /// Clean exit: saves every dirty window and records that the app exited cleanly.
    public func shutDown() throws(FileSystemError) {
        let policy = RecoveryPolicy(writer: writer, profile: profile.path, crashLoopLimit: options.crashLoopLimit)
        // The deliberately flawed order, for a crash checker to prove it notices.
        if options.writeProtocol == .exitMarkerFirst { try policy.recordCleanExit() }
        save(.shutdown)
        if let failure = lastFailure { throw failure.error }
        if options.writeProtocol != .exitMarkerFirst { try policy.recordCleanExit() }
    }

    /// The failure of the most recent save, if it failed.
    public internal(set) var lastFailure: SaveFailure?

    // MARK: Saving

    /// Marks a window dirty and starts the one-shot timer when none is running.
    func markDirty(_ browser: Browser, _ change: (inout PendingChanges) -> Void) {
        let key = SessionKey(id: browser.sessionID, incognito: browser.incognito)
        var changes = pending[key] ?? PendingChanges(browser: browser)
        changes.metadata = true
        change(&changes)
        pending[key] = changes
        if options.writeProtocol == .debouncedSave {
            timer?.cancel()
            timer = nil
        }
        if timer == nil {
            timer = profile.clock.schedule(after: options.saveDelay) { [weak self] in
                self?.timer = nil
                self?.save(.delayed)
            }
        }
    }

    /// Saves every dirty window; cancels the pending timer.
    func save(_ trigger: SaveTrigger) {
        timer?.cancel()
        timer = nil
        if incognitoPurgePending, profile.incognito.browsers.tabCount == 0 { purgeIncognito() }
        guard !pending.isEmpty else { return }
        let changes = pending
        pending = [:]
        let job = makeJob(changes)
        run(job, trigger: trigger, retry: changes)
    }

    /// Removes every incognito file now (the last incognito tab closed).
    func purgeIncognito() {
        let dropped = pending.filter { $0.key.incognito }
        pending = pending.filter { !$0.key.incognito }
        orphanTabs = orphanTabs.filter { !$0.key.incognito }
        let job = SaveJob(windows: [], purgeDirectory: profile.incognito.directory)
        incognitoPurgePending = true
        run(job, trigger: .incognitoClosed, retry: dropped)
    }

    /// The acknowledgement of a committed job.
    private func record(of job: SaveJob, trigger: SaveTrigger, deleted: [SessionKey: [TabID]]) -> SaveRecord {
        SaveRecord(
            sequence: sequence, trigger: trigger,
            sessions: job.windows.filter { !$0.removeDirectory }.map(\.session),
            removedSessions: job.windows.filter(\.removeDirectory).map(\.key),
            incognitoPurged: job.purgeDirectory != nil, deletedTabs: deleted)
    }

    private func run(_ job: SaveJob, trigger: SaveTrigger, retry: [SessionKey: PendingChanges]) {
        sequence += 1
        // The deliberately flawed order, for a crash checker to prove it notices.
        if options.writeProtocol == .earlyAcknowledgement { onSave?(record(of: job, trigger: trigger, deleted: [:])) }
        do throws(FileSystemError) {
            try job.commit(writer)
        } catch {
            fail(SaveFailure(sequence: sequence, trigger: trigger, error: error), retry: retry)
            return
        }
        var deleted: [SessionKey: [TabID]] = [:]
        var cleanupFailure: FileSystemError?
        do throws(FileSystemError) {
            deleted = try job.removeClosedTabs(writer)
        } catch {
            cleanupFailure = error
        }
        for window in job.windows {
            orphanTabs[window.key]?.subtract(window.closedTabs)
            if orphanTabs[window.key]?.isEmpty == true { orphanTabs[window.key] = nil }
        }
        lastFailure = nil
        if job.purgeDirectory != nil { incognitoPurgePending = false }
        if options.writeProtocol != .earlyAcknowledgement { onSave?(record(of: job, trigger: trigger, deleted: deleted)) }
        if let cleanupFailure {
            // The commit is durable; only closed tabs' directories remain, removed by a later save.
            for window in job.windows where !window.closedTabs.isEmpty {
                orphanTabs[window.key, default: []].formUnion(window.closedTabs)
            }
            let failure = SaveFailure(sequence: sequence, trigger: trigger, error: cleanupFailure)
            lastFailure = failure
            onSaveFailure?(failure)
        }
    }

    private func fail(_ failure: SaveFailure, retry: [SessionKey: PendingChanges]) {
        lastFailure = failure
        for (key, changes) in retry {
            var merged = pending[key] ?? PendingChanges(browser: changes.browser)
            merged.metadata = true
            merged.dirtyTabs.formUnion(changes.dirtyTabs)
            merged.closedTabs.formUnion(changes.closedTabs)
            pending[key] = merged
        }
        onSaveFailure?(failure)
        if !pending.isEmpty, timer == nil {
            timer = profile.clock.schedule(after: options.saveDelay) { [weak self] in
                self?.timer = nil
                self?.save(.delayed)
            }
        }
    }
}
