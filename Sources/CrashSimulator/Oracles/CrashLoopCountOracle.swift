import FileSystemKit
import SessionStore

/// A crash while a launch restores counts toward the crash-loop guard, as the store's own rule
/// says (`RestoreCrashAccount`): judged on each crash state inside recovery by what the next
/// launch reports.
///
/// Where the crash came is read from the interrupted launch's operations alone (`Phase`), as the
/// simulator knows them, not as the store's marker says: the launch is restoring from its first
/// change to the profile other than a write of its marker until both its last such change (the
/// sessions set aside and restored) and the last write of the marker (the one recording that the
/// app runs) are complete. A store that records the app as running before its restore is done
/// (`early-running-mark`) is caught there: a crash after that mark and before the restore's end
/// must still be counted, as Chromium's guard counts every failed startup until the app is up
/// (ios/chrome/browser/crash_report/model/crash_loop_detection_util.h: the failed-startup count
/// is increased "immediately after startup, so that if there is a crash, it is recorded"; after
/// two, `postCrashAction` restores no tab, `kShowNTPWithReturnToTab`). A crash
/// in between must be counted: the next launch reports `crashDuringRestore`, one crash more than
/// the interrupted launch counted (one, when its guard triggered), and triggers the guard when
/// that reaches the limit. A crash after that last write must not be counted. A crash before the
/// launch changed anything else may leave the marker the interrupted launch found or the one it
/// wrote: the next launch reports as the interrupted one did, or counts the crash.
enum CrashLoopCountOracle {
    /// Where the restore of a launch starts and ends among its operations.
    struct Phase: Sendable {
        /// The first operation that changes the profile other than by writing the marker (nil: none).
        var firstWork: Int?
        /// The last operation that writes the marker or puts it in place (nil: none).
        var lastMarkerWrite: Int?
        /// The last operation that changes the profile other than by writing the marker: where
        /// the restore ends, whatever the marker says (nil: none).
        var lastWork: Int?

        init(_ steps: [FileOperation], profile: String) {
            let marker = joinPath(profile, RecoveryMarker.fileName)
            for (index, step) in steps.enumerated() {
                if Phase.writesMarker(step, marker: marker) { lastMarkerWrite = index }
                if Phase.isWork(step, profile: profile) {
                    if firstWork == nil { firstWork = index }
                    lastWork = index
                }
            }
        }

        /// Whether a crash after `steps` complete operations comes after the restore: after the
        /// last write of the marker and after the last change of the restore.
        func isPastRestore(_ steps: Int) -> Bool {
            guard let lastMarkerWrite, lastMarkerWrite < steps else { return false }
            return lastWork.map { $0 < steps } ?? true
        }

        /// Whether `step` replaces the marker at `marker` or changes its bytes.
        static func writesMarker(_ step: FileOperation, marker: String) -> Bool {
            switch step.kind {
            case .rename, .link: return step.destination == marker
            case .create, .write, .truncate: return step.path == marker
            default: return false
            }
        }

        /// Whether `step` changes the profile other than through the marker: anything but a
        /// barrier, or an operation on the marker, its temporary and backup names, the profile
        /// directory or a directory above it.
        static func isWork(_ step: FileOperation, profile: String) -> Bool {
            guard !step.effect.isBarrier else { return false }
            return !([step.path] + (step.destination.map { [$0] } ?? [])).allSatisfy { path in
                path == profile || profile.hasPrefix(path == "/" ? path : path + "/")
                    || (parentPath(path) == profile && lastPathComponent(path).contains(RecoveryMarker.fileName))
            }
        }
    }

    /// The finding on the state a crash leaves after `crash.steps` of the operations `steps` of a
    /// launch that found `found` (its next write cut when `crash.cut` is set), when the next launch
    /// accounts for it as `next` (nil: recovery failed or its runner does not say; no finding).
    static func check(
        _ crash: StateVerdict.RecoveryCrash, steps: [FileOperation], phase: Phase, found: RecoveryMarker?,
        next: RestoreCrashAccount?
    ) -> Finding? {
        guard let next else { return nil }
        // Operations applied at least in part; the last of them cut when `cut` is set.
        let reached = crash.steps + (crash.cut == nil ? 0 : 1)
        let began = phase.firstWork.map { $0 < reached } ?? false
        let finished = phase.isPastRestore(crash.steps)
        let counted = RestoreCrashAccount.afterCrash(inLaunchFinding: found)
        let location = place(crash, steps: steps)
        if finished {
            guard next.countsRestoreCrash || next.consecutive != 0 || next.guardTriggered else { return nil }
            return Finding(
                .crashLoopCount,
                "recovery crashed \(location), after the launch recorded that the app runs: the next launch reports \(next), but must count no crash during restore"
            )
        }
        if began {
            guard next != counted else { return nil }
            let since = phase.firstWork.flatMap { $0 + 1 == reached ? nil : " (since r\($0 + 1) \(steps[$0].summary))" } ?? ""
            return Finding(
                .crashLoopCount,
                "recovery crashed \(location), while the launch was restoring\(since): the next launch reports \(next), but the crash-loop guard must count it (\(counted))"
            )
        }
        let unchanged = RestoreCrashAccount.expected(finding: found)
        guard next != unchanged && next != counted else { return nil }
        return Finding(
            .crashLoopCount,
            "recovery crashed \(location), before the launch changed anything but its marker: the next launch reports \(next), but must report as the interrupted launch did (\(unchanged)) or count the crash (\(counted))"
        )
    }

    /// Where in recovery a crash came: `after r12 unlink /profile/...` or `inside r13 write ...`.
    private static func place(_ crash: StateVerdict.RecoveryCrash, steps: [FileOperation]) -> String {
        if crash.cut != nil, steps.indices.contains(crash.steps) {
            return "inside r\(crash.steps + 1) \(steps[crash.steps].summary)"
        }
        guard crash.steps > 0, steps.indices.contains(crash.steps - 1) else { return "before its first operation" }
        return "after r\(crash.steps) \(steps[crash.steps - 1].summary)"
    }
}
