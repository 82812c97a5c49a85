import FileSystemKit
import SessionFormats

/// Judges the crash states of a `CommandRun`: what the crash left, then what a plain re-run of the
/// command makes of it, each against the profile before the run and the uninterrupted run's result.
///
/// A command that writes an output beside its input is judged by its `OutputCheck` instead.
///
/// On the crash state: every tab held before is still held (live or in a verified set-aside
/// entry), unless the uninterrupted run itself removes it (`aside drop`), and the profile validates no worse than before (nothing half-written under a final
/// name). After the re-run: the same two, the live sessions exactly those of the uninterrupted
/// run, and none of sessionctl's temporary names left. The re-run's changes are undone after.
final class CommandJudge {
    let run: CommandRun
    private var verdicts: [UInt64: [Finding]] = [:]
    /// Distinct trees judged.
    var judged: Int { verdicts.count }

    init(run: CommandRun) { self.run = run }

    /// The findings of the state `tree` holds (journaling on: the re-run is rolled back).
    func judge(_ tree: ModelTree) -> [Finding] {
        if let known = verdicts[tree.hash] { return known }
        let hash = tree.hash
        let profile = run.recording.profile
        let firstInode = run.recording.inodeCount + 10_000
        let operationBase = Int32(run.recording.operations.count) + 1_000
        let crashed = ModelFileSystem(tree: tree, firstInode: firstInode, operationBase: operationBase, tracksExactContent: false)
        var findings =
            run.output?.judgeCrashed(crashed)
            ?? check(
                TabCensus.take(crashed, profile: profile), errors: CommandRun.validationErrors(crashed, profile: profile),
                when: "after the crash")
        let mark = tree.mark()
        let rerun = ModelFileSystem(
            tree: tree, firstInode: firstInode, operationBase: operationBase, tracksExactContent: false, temporaryTag: "r")
        var failure: String?
        do {
            try run.command.run(
                run.arguments, fileSystem: rerun, profile: profile, writeProtocol: run.writeProtocol,
                sequence: CommandSequence(start: run.command.rerunStart))
        } catch {
            failure = "\(error)"
        }
        if let output = run.output {
            findings += output.judgeRerun(rerun, failure: failure)
            tree.rollback(to: mark)
            verdicts[hash] = findings
            return findings
        }
        let after = TabCensus.take(rerun, profile: profile)
        findings += check(after, errors: CommandRun.validationErrors(rerun, profile: profile), when: "after the re-run")
        if after.liveSessions != run.expected.liveSessions {
            findings.append(
                Finding(
                    .convergence,
                    "the re-run leaves \(describe(after.liveSessions)) live where an uninterrupted run leaves \(describe(run.expected.liveSessions))"
                        + (failure.map { " (the re-run failed: \($0))" } ?? "")))
        }
        let left = CommandRun.leftovers(rerun, profile: profile).subtracting(run.leftoversExpected)
        if !left.isEmpty {
            findings.append(
                Finding(
                    .hygiene,
                    "after the re-run the profile still holds \(left.sorted().prefix(3).joined(separator: ", "))\(left.count > 3 ? " and \(left.count - 3) more" : "")"
                ))
        }
        tree.rollback(to: mark)
        verdicts[hash] = findings
        return findings
    }

    /// The tabs lost and validation errors gained in `census` and `errors`, against before the run.
    private func check(_ census: TabCensus, errors: Set<String>, when: String) -> [Finding] {
        var findings: [Finding] = []
        // Only what the uninterrupted run itself removes may go (the tabs of a dropped entry).
        let lost = run.before.all.intersection(run.expected.all).subtracting(census.all)
        if !lost.isEmpty {
            findings.append(
                Finding(
                    .tabsKept,
                    "\(when), \(lost.count) tab\(lost.count == 1 ? " is" : "s are") neither live nor in a set-aside entry whose manifest verifies, e.g. \(lost.sorted().first ?? "")"
                        + (census.unverifiedEntries.isEmpty
                            ? ""
                            : " (entries whose manifest does not verify: \(census.unverifiedEntries.sorted().joined(separator: ", ")))")))
        }
        let worse = errors.subtracting(run.errorsBefore)
        if !worse.isEmpty {
            findings.append(
                Finding(.atomicity, "\(when), the profile validates worse than before: \(worse.sorted().prefix(3).joined(separator: ", "))")
            )
        }
        return findings
    }

    private func describe(_ sessions: [String: [String]]) -> String {
        let windows = sessions.keys.sorted().map { "\($0) (\(sessions[$0]?.count ?? 0) tabs)" }
        return windows.isEmpty ? "no session" : windows.joined(separator: ", ")
    }
}
