import FileSystemKit
import SessionFormats
import SessionModel

extension SessionService {
    /// Launches the store on a profile: runs the `RecoveryPolicy` (marker, leftover temporary
    /// files, the `LaunchSettling` steps of `options`, set-aside of sessions Chrome would lose,
    /// crash-loop guard), restores every remaining session of both sides into a window with
    /// unrealized tabs, and records that the app runs.
    ///
    /// - Parameters:
    ///   - profile: the profile directory (created if missing).
    ///   - fileSystem: every file operation goes through it (the crash simulator passes its own).
    ///   - clock: wall time and the delayed save's timer (`VirtualClock` for deterministic runs).
    ///   - options: save delay, crash-loop limit, and what to settle for other tools.
    ///   - groupIDs: makes fresh tab group ids (random by default; pass a sequence for determinism).
    /// - Throws: `FileSystemError` when the marker or a set-aside cannot be written; nothing is lost then.
    public static func launch(
        profile: String, fileSystem: any FileSystem = POSIXFileSystem(), clock: any SessionClock,
        options: Options = Options(), groupIDs: (() -> TabGroupID)? = nil
    ) throws(FileSystemError) -> SessionService {
        try beginLaunch(profile: profile, fileSystem: fileSystem, clock: clock, options: options, groupIDs: groupIDs).finish()
    }

    /// The first stage of `launch`, up to the point where sessions are read (see
    /// `RecoveryPolicy.beginLaunch()`); `PendingLaunch.finish()` does the rest. A crash checker
    /// stops here to recognise a launch whose rest it has already seen.
    @_spi(CrashTesting) public static func beginLaunch(
        profile: String, fileSystem: any FileSystem = POSIXFileSystem(), clock: any SessionClock,
        options: Options = Options(), groupIDs: (() -> TabGroupID)? = nil
    ) throws(FileSystemError) -> PendingLaunch {
        let writer = AtomicWriter(fileSystem: fileSystem, writeProtocol: options.writeProtocol)
        let policy = RecoveryPolicy(writer: writer, profile: profile, crashLoopLimit: options.crashLoopLimit, settling: options.settling)
        let now = clock.now
        let report = try policy.beginLaunch()
        return PendingLaunch(policy: policy, report: report, now: now, clock: clock, options: options, groupIDs: groupIDs)
    }

    /// A launch whose first stage has run: what it found and did, and what the rest needs.
    @_spi(CrashTesting) public struct PendingLaunch {
        let policy: RecoveryPolicy
        /// What the first stage found and did: all that the rest carries over from it.
        public let report: LaunchReport
        /// The time the launch started at (stamps of set-asides).
        public let now: Timestamp
        let clock: any SessionClock
        let options: Options
        let groupIDs: (() -> TabGroupID)?

        /// Sets aside the sessions that must not be restored, restores the others into windows,
        /// and records that the app runs. Call it once.
        public func finish() throws(FileSystemError) -> SessionService {
            // The planted flaw of `early-running-mark`: the app recorded as running before its restore.
            if !policy.writer.writeProtocol.marksRunningLast { try policy.recordRunning() }
            let (report, sessions) = try policy.decideSessions(after: report, now: now)
            let model = Profile(
                path: policy.profile, clock: clock,
                groupIDGenerator: groupIDs ?? {
                    TabGroupID(high: UInt64.random(in: 0...UInt64.max), low: UInt64.random(in: 0...UInt64.max))
                })
            let service = SessionService(profile: model, writer: policy.writer, options: options, launchReport: report)
            for restored in sessions { service.install(restored) }
            service.launchReport.restored = sessions
            if policy.writer.writeProtocol.marksRunningLast { try policy.recordRunning() }
            return service
        }
    }

    /// Restores a session from disk into a new window (after its scene disconnected, or at launch).
    /// A session Chrome would lose is set aside rather than opened; nil then, or when there is none.
    func restoreWindow(_ key: SessionKey) throws(FileSystemError) -> Browser? {
        let loader = SessionDirectoryLoader(fileSystem: fileSystem, profile: profile.path)
        guard fileSystem.kind(of: loader.directory(of: key)) == .directory else { return nil }
        let outcome = loader.load(key)
        if let loss = outcome.loss {
            if !(outcome.deletedEntries.isEmpty && loss == .metadataMissing) {
                let entry = try SessionSetAside(writer: writer, profile: profile.path)
                    .push(key, reason: "Chrome would not load it: \(loss)", time: profile.clock.now, method: .linkCopy)
                launchReport.setAside.append(entry)
            }
            return nil
        }
        let policy = RecoveryPolicy(writer: writer, profile: profile.path)
        if let entry = try policy.keepCopyIfShortened(key, outcome: outcome, time: profile.clock.now) {
            launchReport.setAside.append(entry)
        }
        let restored = LaunchReport.RestoredSession(key: key, outcome: outcome)
        launchReport.restored.append(restored)
        return install(restored)
    }

    /// Builds the window of a restored session: unrealized tabs, openers, pinning, groups.
    @discardableResult
    func install(_ restored: LaunchReport.RestoredSession) -> Browser {
        let key = restored.key
        let browser = profile.openBrowser(key.id, incognito: key.incognito)
        guard let session = restored.outcome.session else { return browser }
        let loader = SessionDirectoryLoader(fileSystem: fileSystem, profile: profile.path)
        let tabs = session.tabs.map { stored in
            BrowserTab(restoring: stored) { () throws(FormatError) in try loader.readTabData(stored.id, of: key) }
        }
        for (index, stored) in session.tabs.enumerated() {
            profile.reserveTabID(stored.id)
            if let opener = stored.opener, tabs.indices.contains(Int(opener.index)) {
                tabs[index].opener = tabs[Int(opener.index)]
            }
        }
        var groups: [TabGroupID: TabGroup] = [:]
        for group in session.groups {
            let id = group.id.flatMap { $0.isZero ? nil : $0 } ?? profile.makeGroupID()
            var info = group
            info.id = id
            groups[id] = info
            for index in Int(group.start)..<Int(group.start + group.count) where tabs.indices.contains(index) {
                tabs[index].groupID = id
            }
        }
        browser.tabs.restore(tabs: tabs, activeIndex: Int(session.activeIndex), pinnedCount: Int(session.pinnedCount), groups: groups)
        browser.unknownFields = session.unknownFields
        let orphans = restored.outcome.deletedEntries.compactMap { Tab.id(fromDirectoryName: $0) }
        for id in orphans { profile.reserveTabID(id) }
        if !orphans.isEmpty { orphanTabs[key, default: []].formUnion(orphans) }
        browser.tabs.addObserver(self)
        return browser
    }
}
