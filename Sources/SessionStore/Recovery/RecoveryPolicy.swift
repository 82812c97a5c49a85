import FileSystemKit
import SessionFormats
import SessionModel

/// Decides at launch what happens to the sessions on disk, and records the app's state so that
/// the next launch can tell a clean exit from a crash.
///
/// - The clean-exit marker (`RecoveryMarker`) lives in the profile directory, outside
///   `SessionStorage/<id>/` and `OTR/`.
/// - A session is restored when Chrome would load it (`ChromeLoadSemantics`); one Chrome would
///   lose (metadata missing, unparsable, an invalid tab id) is set aside to `Backups/` instead,
///   never loaded empty and overwritten.
/// - A crash during restore is counted; after `crashLoopLimit` consecutive ones every session is
///   set aside instead of restored (crash-loop guard), and the count starts again.
/// - What other tools that write the profile left unfinished is settled by the `settling` steps
///   they supply (`LaunchSettling`), after the store's own and under the profile's lock; by
///   default there are none. Names beginning with `AtomicWriter.reservedPrefix` are never
///   restored as sessions either way.
/// - Nothing is deleted, except the temporary files of interrupted writes. Every step is durable
///   before the next, and running it again on the same disk does the same thing: an interrupted
///   recovery is finished by the next launch.
public struct RecoveryPolicy: Sendable {
    /// Every file operation of recovery goes through it.
    public let writer: AtomicWriter
    /// The profile directory.
    public let profile: String
    /// Consecutive crashes during restore that trigger the crash-loop guard.
    public let crashLoopLimit: Int
    /// What the launch settles for other tools, in order, after its own steps (see `LaunchSettling`).
    public let settling: [any LaunchSettling]

    /// A policy for the profile at `profile`; `settling` is what its launch settles for other tools.
    public init(writer: AtomicWriter, profile: String, crashLoopLimit: Int = 2, settling: [any LaunchSettling] = []) {
        self.writer = writer
        self.profile = profile
        self.crashLoopLimit = max(1, crashLoopLimit)
        self.settling = settling
    }

    var markerPath: String { joinPath(profile, RecoveryMarker.fileName) }

    /// The marker as on disk: nil when missing, `.running` (unclean) when unreadable. A marker
    /// whose replacement was torn away (its backup is there, the marker is not: the rename lost
    /// its link after removing the old name) is its backup, as the sweep that follows puts it back.
    public func readMarker() -> RecoveryMarker? {
        var path = markerPath
        if writer.fileSystem.kind(of: path) == nil {
            path = joinPath(profile, AtomicWriter.backupName(of: RecoveryMarker.fileName))
            guard writer.fileSystem.kind(of: path) != nil else { return nil }
        }
        guard let bytes = try? writer.fileSystem.read(path), let marker = RecoveryMarker(bytes: bytes) else {
            return RecoveryMarker(state: .running)
        }
        return marker
    }

    /// Writes the marker durably.
    public func writeMarker(_ marker: RecoveryMarker) throws(FileSystemError) {
        try writer.makeDirectories(profile)
        try writer.write(marker.encoded, to: markerPath)
    }

    /// Records that the app exits cleanly.
    public func recordCleanExit() throws(FileSystemError) { try writeMarker(RecoveryMarker(state: .clean)) }

    /// Records that restore finished and the app runs.
    public func recordRunning() throws(FileSystemError) { try writeMarker(RecoveryMarker(state: .running)) }

    /// The first half of a launch: reads the marker, records that restore starts, removes leftover
    /// temporary files, completes interrupted set-asides, runs the `settling` steps, and sets
    /// aside every session that must not be restored. Returns the report and the sessions to
    /// restore, with their outcomes.
    public func prepareLaunch(now: Timestamp) throws(FileSystemError) -> (report: LaunchReport, sessions: [LaunchReport.RestoredSession]) {
        try decideSessions(after: beginLaunch(), now: now)
    }

    /// The first stage of `prepareLaunch`, before any session is read: reads the marker, records
    /// that restore starts, removes leftover temporary files, completes interrupted set-asides and
    /// runs the `settling` steps. The report it returns is all that the second stage
    /// (`decideSessions(after:now:)`) carries over from it.
    @_spi(CrashTesting) public func beginLaunch() throws(FileSystemError) -> LaunchReport {
        var report = LaunchReport()
        let marker = readMarker()
        switch marker?.state {
        case nil: report.previousExit = .unknown
        case .clean: report.previousExit = .clean
        case .running: report.previousExit = .unclean
        case .restoring: report.previousExit = .crashDuringRestore
        }
        let crashes = marker?.state == .restoring ? (marker?.restoreCrashes ?? 0) + 1 : 0
        report.consecutiveRestoreCrashes = crashes
        let guardTriggered = crashes >= crashLoopLimit
        report.crashLoopGuardTriggered = guardTriggered
        if writer.writeProtocol.marksRestoreFirst { try markRestoring(report) }

        report.removedTemporaryFiles = try TemporaryFileSweeper(writer: writer, profile: profile).sweep()
        let setAside = SessionSetAside(writer: writer, profile: profile)
        report.completedManifests = try setAside.completeInterruptedEntries()
        // What other tools left is settled as their next run would, before any session is read;
        // unless one runs on the profile now (it holds the lock).
        if !settling.isEmpty, let lock = try? writer.fileSystem.lockDirectory(profile) {
            report.settledCommands = try withExtendedLifetime(lock) { () throws(FileSystemError) in
                var lines: [String] = []
                for step in settling { lines += try step.settle(profile: profile, writer: writer) }
                return lines
            }
        }
        return report
    }

    /// The second stage of `prepareLaunch`: loads every session with Chrome's semantics and sets
    /// aside those that must not be restored (all of them when the crash-loop guard triggered in
    /// `report`, the first stage's). Returns the report and the sessions to restore.
    @_spi(CrashTesting) public func decideSessions(
        after report: LaunchReport, now: Timestamp
    ) throws(FileSystemError) -> (report: LaunchReport, sessions: [LaunchReport.RestoredSession]) {
        var report = report
        let crashes = report.consecutiveRestoreCrashes
        let setAside = SessionSetAside(writer: writer, profile: profile)
        var sessions: [LaunchReport.RestoredSession] = []
        for key in sessionKeys() {
            let outcome = SessionDirectoryLoader(fileSystem: writer.fileSystem, profile: profile).load(key)
            if report.crashLoopGuardTriggered {
                report.setAside.append(
                    try setAside.push(
                        key, reason: "crash-loop guard: \(crashes) consecutive crashes during restore", time: now, method: .linkCopy))
            } else if let loss = outcome.loss {
                guard !(outcome.deletedEntries.isEmpty && loss == .metadataMissing) else { continue }
                report.setAside.append(try setAside.push(key, reason: "Chrome would not load it: \(loss)", time: now, method: .linkCopy))
            } else {
                if let entry = try keepCopyIfShortened(key, outcome: outcome, time: now) { report.setAside.append(entry) }
                sessions.append(LaunchReport.RestoredSession(key: key, outcome: outcome))
            }
        }
        if !writer.writeProtocol.marksRestoreFirst { try markRestoring(report) }
        return (report, sessions)
    }

    /// Records that restore starts, with the crashes during restore counted so far; the count
    /// restarts once the guard has set the sessions aside.
    private func markRestoring(_ report: LaunchReport) throws(FileSystemError) {
        let crashes = report.crashLoopGuardTriggered ? 0 : report.consecutiveRestoreCrashes
        try writeMarker(RecoveryMarker(state: .restoring, restoreCrashes: crashes))
    }

    /// Keeps a copy in `Backups/` of a session that Chrome's loading rules shorten (tabs dropped
    /// for no navigation items or a repeated id, tabs restored without their data.pb), unless an
    /// entry already holds the same session_metadata.pb: the live session is restored as Chrome
    /// restores it, and what the next save rewrites away stays readable. Returns the new entry.
    func keepCopyIfShortened(
        _ key: SessionKey, outcome: ChromeLoadSemantics.Outcome, time: Timestamp
    ) throws(FileSystemError) -> SetAsideEntry? {
        guard outcome.loss == nil, !outcome.droppedTabs.isEmpty || !outcome.tabsWithoutData.isEmpty,
            writer.writeProtocol != .noKeptCopy
        else { return nil }
        let loader = SessionDirectoryLoader(fileSystem: writer.fileSystem, profile: profile)
        let setAside = SessionSetAside(writer: writer, profile: profile)
        let metadata = try writer.fileSystem.read(joinPath(loader.directory(of: key), ProfileLayout.metadataFile))
        guard !setAside.hasEntry(of: key, holdingMetadata: metadata) else { return nil }
        return try setAside.push(
            key, reason: "kept as it was before Chrome's loading rules shortened it: \(outcome.shortenings.joined(separator: "; "))",
            time: time, method: writer.writeProtocol == .dropsBackedUpSession ? .linkCopy : .copy)
    }

    /// The sessions of the profile's `SessionStorage/` directories, regular first, each side by id.
    func sessionKeys() -> [SessionKey] {
        var keys: [SessionKey] = []
        for incognito in [false, true] {
            let storage = joinPath(profile, ProfileLayout.stateRoot(incognito: incognito), ProfileLayout.optimizedDirectory)
            guard writer.fileSystem.kind(of: storage) == .directory, let names = try? writer.fileSystem.list(storage) else { continue }
            // Names given to work in progress are never sessions.
            for name in names
            where !name.hasPrefix(AtomicWriter.reservedPrefix) && writer.fileSystem.kind(of: joinPath(storage, name)) == .directory {
                keys.append(SessionKey(id: name, incognito: incognito))
            }
        }
        return keys
    }
}
