import Archive
import FileSystemKit
import SessionForensics
import SessionStore

/// The caches of `StateJudge` that depend only on the states they are asked about, never on the
/// order in which they are asked (`Memo`s): what the oracles found on each tree recovery left,
/// the second recovery run of each such tree, and the set-aside oracle's notes and captures; and
/// which of the checker's shortcuts are taken (`Shortcut`).
///
/// Many crash states differ only in what recovery cleans up (a temporary file, a marker not yet
/// rewritten), so recovery leaves the same tree on them: that tree is assessed and recovered a
/// second time once. One exploration worker keeps one instance for all the partitions it
/// explores; a partition's results do not depend on what the caches hold (each cached value is a
/// function of the tree it is keyed by), only its speed does. Confined to one thread.
final class JudgeCaches {
    /// What the oracles found on a tree after recovery (see `StateJudge`).
    struct Aftermath {
        var findings: [Finding]
        var floor: DurabilityOracle.Floor
        /// Privacy groups found in the tree's files, with where, for every one of them.
        var privacyFound: UInt64
        var privacyDetails: [Int: String]
    }

    /// The oracles.
    var suite: OracleSuite
    /// Aftermaths, by the tree recovery left (its hash) and the profile directory's inode.
    private let aftermaths: Memo<Aftermath>
    /// Outcomes of recovery run on a tree recovery left, by that tree's hash.
    private let secondRuns: Memo<Result<RecoveryOutcome, any Error>>
    /// What the set-aside oracle noted before recovery, by the content of the session stores and
    /// of the repair's intent record.
    private let befores: Memo<SetAsideOracle.Before>
    /// The session stores' paths in the recording's profile.
    private let storePaths: [String]
    /// Set-aside captures by the tree recovery left, what was noted before, and the entries made.
    private let captures: Memo<SetAsideOracle.Capture>
    /// Whether the shortcuts are taken (`Shortcut`): answers remembered in the memos above,
    /// directories compared by content hash, recoveries resumed, trees removed or copied at once;
    /// false makes the oracles read every file every time and the store run every recovery whole
    /// (what the shortcuts are checked against).
    let takesShortcuts: Bool

    init(recording: Recording, takesShortcuts: Bool = true) {
        self.takesShortcuts = takesShortcuts
        suite = OracleSuite(recording: recording)
        storePaths = SetAsideOracle.storeDirectories.map { joinPath(recording.profile, $0) }
        aftermaths = Memo(.aftermath, takesShortcuts: takesShortcuts)
        secondRuns = Memo(.secondRun, takesShortcuts: takesShortcuts)
        befores = Memo(.setAsideBefore, takesShortcuts: takesShortcuts)
        captures = Memo(.setAsideCapture, takesShortcuts: takesShortcuts)
    }

    /// Whether the oracles compare directories by content hash and the model answers the sweep's
    /// hint by it.
    var usesContentHashes: Bool { takesShortcuts && Shortcut.contentHashes.isTaken }
    /// Whether recoveries are resumed from `RecoveryTails`.
    var resumesRecoveries: Bool { takesShortcuts && Shortcut.recoveryTails.isTaken }
    /// Whether the model file system removes or copies trees at once (see `StateJudge.recover`).
    var collapsesTrees: Bool { takesShortcuts && Shortcut.oneStepTrees.isTaken }

    /// The aftermath of the tree of hash `hash` (the profile directory being inode `profile`),
    /// assessed on the tree `tree` gives when not known yet.
    func aftermath(hash: UInt64, profile: Int32?, tree: () -> ModelTree) -> Aftermath {
        aftermaths.value(aftermaths.key.with(hash).with(profile.map { UInt64(UInt32(bitPattern: $0)) })) {
            let tree = tree()
            let assessment = suite.assess(tree, profile: profile)
            var details: [Int: String] = [:]
            let found = suite.privacy(tree, profile: profile, scan: assessment.scan, when: "after recovery", into: &details)
            return Aftermath(findings: assessment.findings, floor: assessment.floor, privacyFound: found, privacyDetails: details)
        }
    }

    /// What the set-aside oracle notes before recovery on `tree` (`SetAsideOracle.before`, in the
    /// recording's profile), remembered by the content hashes of the session stores and of the
    /// repair's intent record, all that it reads.
    func setAsideBefore(_ tree: ModelTree) -> SetAsideOracle.Before {
        let profile = suite.recording.profile
        guard usesContentHashes else { return SetAsideOracle.before(tree, profile: profile, hashing: false) }
        let fileSystem = ModelFileSystem(tree: tree)
        var key = befores.key
        for path in storePaths + [joinPath(profile, RepairIntent.fileName)] {
            key = key.with(fileSystem.resolve(path).flatMap { tree.contentHash(of: $0, leavingOutTransient: false) })
        }
        return befores.value(key) { SetAsideOracle.before(tree, profile: profile, hashing: true) }
    }

    /// What the set-aside oracle captures after recovery (`capture`, run when not known yet),
    /// remembered by the hash of the tree recovery left, what was noted before it, and where the
    /// outcome says it set sessions aside: the capture is a function of these alone. A capture
    /// holding files (a set-aside that is not whole: a flaw) is not kept.
    func setAside(
        finalHash: UInt64, before: SetAsideOracle.Before, outcome: RecoveryOutcome?,
        capture: () -> SetAsideOracle.Capture
    ) -> SetAsideOracle.Capture {
        var key = captures.key.with(finalHash).with(before.digest).with(outcome != nil)
        for (entry, original) in (outcome?.setAside ?? [:]).sorted(by: { $0.key < $1.key }) {
            key = key.with(entry).with(original)
        }
        return captures.value(
            key, keeps: { result in result.entries.allSatisfy { $0.files == nil } && result.vanished.allSatisfy { $0.entries == nil } },
            capture)
    }

    /// Whether the manifest of the set-aside entry at `entry` verifies (`TabCensus.manifestVerifies`),
    /// checked on the tree itself (`ModelManifestCheck`) when the shortcuts are taken.
    func manifestVerifies(_ fileSystem: ModelFileSystem, entry: String) -> Bool {
        guard usesContentHashes, let inode = fileSystem.resolve(entry) else { return TabCensus.manifestVerifies(fileSystem, entry: entry) }
        return ModelManifestCheck.verifies(fileSystem.tree, entry: inode) { SHA256.hex(SHA256.hash($0.bytes)) }
    }

    /// The outcome of recovery on the tree whose hash is `hash`, computed by `run` when not known
    /// yet (`run` may apply what the first run left unapplied, and must undo the rest).
    func secondRun(hash: UInt64, _ run: () -> Result<RecoveryOutcome, any Error>) -> Result<RecoveryOutcome, any Error> {
        secondRuns.value(secondRuns.key.with(hash), run)
    }
}
