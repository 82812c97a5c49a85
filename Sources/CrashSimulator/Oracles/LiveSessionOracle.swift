import FileSystemKit
import SessionFormats
import SessionStore

/// Recovery keeps every session Chrome would load live: a session directory whose list Chrome
/// loads before recovery (`ChromeLoadSemantics`: not refused, however it would shorten it) still
/// has its list after recovery, so that its window opens on the next launch.
///
/// A whole copy in `Backups/` does not make up for it: the user's live tabs are gone from the
/// browser either way, and the set-aside oracle, which accepts such a copy for a session Chrome
/// would not load, cannot tell the two apart. The one exception is the crash-loop guard, which
/// sets every session aside: allowed when the marker the launch finds says it must trigger
/// (`RestoreCrashAccount`), not when the launch says it did.
///
/// The same holds for a window an interrupted `sessionctl repair` was replacing (set aside, its
/// repaired copy staged or lost): the launch settles it as the command's next run would, so that
/// it is live after recovery, repaired or as it was.
enum LiveSessionOracle {
    /// The findings on the session directories `delisted` (relative to the profile at `profile`:
    /// those with a list before recovery and none after it), judged on `tree` as it was before
    /// recovery.
    /// `unsettled` are the directories an interrupted repair was replacing that are not live
    /// after recovery.
    static func check(delisted: [String], unsettled: [String] = [], before tree: ModelTree, profile: String) -> [Finding] {
        guard !delisted.isEmpty || !unsettled.isEmpty else { return [] }
        let marker = RestoreCrashAccount.marker(in: tree, profile: profile)
        guard !RestoreCrashAccount.expected(finding: marker).guardTriggered else { return [] }
        let fileSystem = ModelFileSystem(tree: tree)
        var findings: [Finding] = unsettled.map { directory in
            Finding(
                .liveSessions,
                "recovery left \(directory) out of the live profile, though an interrupted sessionctl repair was replacing it (its intent record or staged copy names it): its window no longer opens"
            )
        }
        for directory in delisted {
            let path = joinPath(profile, directory)
            guard let inode = fileSystem.resolve(path) else { continue }
            let metadata = try? fileSystem.read(joinPath(path, ProfileLayout.metadataFile))
            let outcome = SessionLoader.outcome(
                directory: inode, metadata: metadata, id: lastPathComponent(directory),
                incognito: pathComponents(directory).first == ProfileLayout.incognitoDirectory, tree: tree)
            guard outcome.loss == nil, let session = outcome.session else { continue }
            let tabs = session.tabs.count
            findings.append(
                Finding(
                    .liveSessions,
                    "recovery took \(directory) out of the live profile, though Chrome would load it (\(tabs) tab\(tabs == 1 ? "" : "s")): its window no longer opens, whatever Backups/ holds"
                ))
        }
        return findings
    }
}
