import Archive
import FileSystemKit
import SessionStore

/// The caches of `StateJudge` that depend only on the states they are asked about, never on the
/// order in which they are asked: the recovery memos, what the oracles found on each tree
/// recovery left, the second recovery run of each such tree, the set-aside oracle's captures, and
/// the oracles' per-content answers.
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

    /// Replays of recovery, one memo per kind of run (first, second, during recovery).
    private var memos: [String: RecoveryMemo] = [:]
    /// The oracles with their per-content caches.
    var suite: OracleSuite
    /// Aftermaths by tree hash and profile inode.
    private var aftermaths: [UInt64: Aftermath] = [:]
    /// Outcomes of recovery run on a tree recovery left, by that tree's hash.
    private var secondRuns: [UInt64: Result<RecoveryOutcome, any Error>] = [:]
    /// What the set-aside oracle noted before recovery, by the content of the session stores.
    private var befores: [UInt64: SetAsideOracle.Before] = [:]
    /// The session stores' paths in the recording's profile.
    private let storePaths: [String]
    /// Set-aside captures by the tree recovery left, what was noted before, and the entries made.
    private var captures: [UInt64: SetAsideOracle.Capture] = [:]
    /// Whether manifests of set-aside entries are verified, by the entry's content hash.
    private var manifestVerdicts: [UInt64: Bool] = [:]
    /// SHA-256 digests of file contents, by content hash and size.
    private var digests: [UInt64: String] = [:]
    /// Entries kept at most in each of the maps above (they start afresh beyond).
    var capacity = 300_000
    /// Whether the oracles may compare directories by content hash and remember answers by it;
    /// false makes them read every file every time (what the shortcuts are checked against).
    var usesContentHashes = true

    init(recording: Recording) {
        suite = OracleSuite(recording: recording)
        storePaths = SetAsideOracle.storeDirectories.map { joinPath(recording.profile, $0) }
    }

    /// The memo of one kind of recovery run (made on first use).
    func memo(_ tag: String) -> RecoveryMemo {
        if let known = memos[tag] { return known }
        let memo = RecoveryMemo()
        memos[tag] = memo
        return memo
    }

    /// The aftermath of the tree of hash `hash` (the profile directory being inode `profile`),
    /// assessed on the tree `tree` gives when not known yet.
    func aftermath(hash: UInt64, profile: Int32?, tree: () -> ModelTree) -> Aftermath {
        let key = ContentHash.combine(hash, UInt64(bitPattern: Int64(profile ?? -1)))
        if let known = aftermaths[key] { return known }
        let tree = tree()
        let assessment = suite.assess(tree, profile: profile)
        var details: [Int: String] = [:]
        let found = suite.privacy(tree, profile: profile, scan: assessment.scan, when: "after recovery", into: &details)
        let result = Aftermath(findings: assessment.findings, floor: assessment.floor, privacyFound: found, privacyDetails: details)
        if aftermaths.count >= capacity { aftermaths.removeAll(keepingCapacity: true) }
        aftermaths[key] = result
        return result
    }

    /// What the set-aside oracle notes before recovery on `tree` (`SetAsideOracle.before`, in the
    /// recording's profile), remembered by the content hashes of the session stores and of the
    /// repair's intent record, all that it reads.
    func setAsideBefore(_ tree: ModelTree) -> SetAsideOracle.Before {
        let profile = suite.recording.profile
        guard usesContentHashes else { return SetAsideOracle.before(tree, profile: profile, hashing: false) }
        let fileSystem = ModelFileSystem(tree: tree)
        var key: UInt64 = 0x6265_666F_7265
        for store in storePaths {
            let hash = fileSystem.resolve(store).flatMap { tree.contentHash(of: $0, leavingOutTransient: false) }
            key = ContentHash.combine(key, hash ?? 0x6E6F_6E65)
        }
        // The repair's intent record, at the profile's top, is read too.
        let intent = fileSystem.resolve(joinPath(profile, RepairIntent.fileName)).flatMap {
            tree.contentHash(of: $0, leavingOutTransient: false)
        }
        key = ContentHash.combine(key, intent ?? 0x6E6F_6E65)
        if let known = befores[key] { return known }
        let before = SetAsideOracle.before(tree, profile: profile, hashing: true)
        if befores.count >= capacity { befores.removeAll(keepingCapacity: true) }
        befores[key] = before
        return before
    }

    /// What the set-aside oracle captures after recovery (`capture`, run when not known yet),
    /// remembered by the hash of the tree recovery left, what was noted before it, and where the
    /// outcome says it set sessions aside: the capture is a function of these alone. Not
    /// remembered without the shortcuts.
    func setAside(
        finalHash: UInt64, before: SetAsideOracle.Before, outcome: RecoveryOutcome?,
        capture: () -> SetAsideOracle.Capture
    ) -> SetAsideOracle.Capture {
        guard usesContentHashes else { return capture() }
        var key = ContentHash.combine(finalHash, before.digest)
        key = ContentHash.combine(key, UInt64(outcome == nil ? 0 : 1))
        for (entry, original) in (outcome?.setAside ?? [:]).sorted(by: { $0.key < $1.key }) {
            key = ContentHash.combine(key, ContentHash.combine(ContentHash.of(entry), ContentHash.of(original)))
        }
        if let known = captures[key] { return known }
        let result = capture()
        // A capture holding files (a set-aside that is not whole: a flaw) is not kept.
        guard result.entries.allSatisfy({ $0.files == nil }), result.vanished.allSatisfy({ $0.entries == nil }) else { return result }
        if captures.count >= capacity { captures.removeAll(keepingCapacity: true) }
        captures[key] = result
        return result
    }

    /// Whether the manifest of the set-aside entry at `entry` verifies (`TabCensus.manifestVerifies`),
    /// remembered by the entry's content hash: the same files give the same answer. Checked on
    /// the tree itself (`ModelManifestCheck`), each content's SHA-256 computed once.
    func manifestVerifies(_ fileSystem: ModelFileSystem, entry: String) -> Bool {
        guard usesContentHashes, let inode = fileSystem.resolve(entry),
            let key = fileSystem.tree.contentHash(of: inode, leavingOutTransient: false)
        else {
            return TabCensus.manifestVerifies(fileSystem, entry: entry)
        }
        if let known = manifestVerdicts[key] { return known }
        let verdict = ModelManifestCheck.verifies(fileSystem.tree, entry: inode, digest: digest)
        if manifestVerdicts.count >= capacity { manifestVerdicts.removeAll(keepingCapacity: true) }
        manifestVerdicts[key] = verdict
        return verdict
    }

    /// The SHA-256 of a blob in lowercase hexadecimal, remembered by its content hash and size.
    func digest(_ blob: Blob) -> String {
        let key = ContentHash.combine(blob.hash, UInt64(blob.count))
        if let known = digests[key] { return known }
        let digest = SHA256.hex(SHA256.hash(blob.bytes))
        if digests.count >= capacity { digests.removeAll(keepingCapacity: true) }
        digests[key] = digest
        return digest
    }

    /// The outcome of recovery on the tree whose hash is `hash`, computed by `run` when not known
    /// yet (`run` may apply what the first run left unapplied, and must undo the rest).
    func secondRun(hash: UInt64, _ run: () -> Result<RecoveryOutcome, any Error>) -> Result<RecoveryOutcome, any Error> {
        if let known = secondRuns[hash] { return known }
        let result = run()
        if secondRuns.count >= capacity { secondRuns.removeAll(keepingCapacity: true) }
        secondRuns[hash] = result
        return result
    }
}
