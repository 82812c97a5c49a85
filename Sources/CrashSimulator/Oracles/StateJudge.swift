import FileSystemKit
import SessionFormats
import SessionStore

/// Runs recovery and every oracle on crash states materialised in a tree, remembering each
/// state's verdict by the tree's hash so that identical states are checked once.
///
/// The tree must be journaling: the judge lets the store's recovery change it through a
/// `ModelFileSystem`, looks at the result, and rolls it back. Crashes during recovery are
/// explored at every step of each distinct recovery (by the kinds of operations it makes) for the
/// first `recoveryCrashParents` states of a partition that run it.
final class StateJudge {
    let recording: Recording
    let runner: any RecoveryRunner
    /// Recovery crash states are explored for this many states per distinct recovery.
    var recoveryCrashParents = 1
    private(set) var verdicts: [UInt64: StateVerdict] = [:]
    /// Recovery memos and oracle caches (possibly shared with the judges of other partitions).
    private let caches: JudgeCaches
    /// The second stages of recent recoveries (see `RecoveryTails`), and whether they are used.
    private let tails = RecoveryTails()
    private var recoverySignatures: [UInt64: Int] = [:]
    /// Runs of recovery so far (a run resumed from a tail counted as a run).
    private(set) var recoveryRuns = 0
    /// Recovery crash states generated (each counted as an explored state).
    var recoveryCrashStates = 0
    /// Of those, the states in which some of recovery's unsynced operations were lost or torn.
    var recoveryPowerLossStates = 0
    /// Recovery checkpoints whose power-loss states were sampled or skipped, and those states
    /// left out (see `exploreRecoveryPowerLoss`).
    var powerLossSampledCheckpoints = 0
    var powerLossLeftOut = 0.0
    /// The persistence model crashes inside recovery are explored under (see `exploreRecoveryPowerLoss`).
    var model = PersistenceModel.process
    /// Recoveries whose crash points were sampled, and the points of theirs left unexplored.
    private(set) var sampledRecoveries = 0
    private(set) var unexploredRecoveryCrashes = 0
    /// Seeds the sampling of the crash points of long recoveries (the exploration's seed).
    var seed: UInt64 = 1
    /// Crash points explored at most per recovery (nil: all; see `RecoveryCrashPoints`).
    var recoveryCrashSample: Int?
    /// The privacy groups whose leaks are worth saying where they were found before recovery:
    /// those whose close some state judged here may have had acknowledged (all by default).
    var detailedPrivacyGroups: UInt64 = ~0

    /// A judge; `caches` (made afresh by default) may be shared with earlier judges of the same
    /// recording and runner on the same thread.
    init(recording: Recording, runner: any RecoveryRunner, caches: JudgeCaches? = nil) {
        self.recording = recording
        self.runner = runner
        self.caches = caches ?? JudgeCaches(recording: recording)
    }

    /// The first inode number recovery runs give on the states of `recording`: far past those
    /// the recording and its crash states use.
    static func firstRecoveryInode(_ recording: Recording) -> Int32 { recording.inodeCount + 10_000 }

    /// Hashes of every state judged.
    var judgedHashes: Dictionary<UInt64, StateVerdict>.Keys { verdicts.keys }

    /// The verdict of the state `tree` holds now (cached by hash); recovery numbers the inodes it
    /// makes from `inodeBase` (by default past the recording's).
    func verdict(_ tree: ModelTree, depth: Int = 0, inodeBase: Int32? = nil) -> StateVerdict {
        if let known = verdicts[tree.hash] { return known }
        let verdict = judge(tree, depth: depth, inodeBase: inodeBase ?? StateJudge.firstRecoveryInode(recording))
        verdicts[tree.hash] = verdict
        return verdict
    }

    private func profileInode(_ tree: ModelTree) -> Int32? {
        ModelFileSystem(tree: tree).resolve(recording.profile)
    }

    private func judge(_ tree: ModelTree, depth: Int, inodeBase: Int32) -> StateVerdict {
        let profile = profileInode(tree)
        var privacyDetails: [Int: String] = [:]
        var privacyFound = caches.suite.privacy(
            tree, profile: profile, byContent: caches.usesContentHashes, detailing: detailedPrivacyGroups,
            when: "before recovery", into: &privacyDetails)
        let preHash = tree.hash
        let sessionsBefore = caches.setAsideBefore(tree)
        let mark = tree.mark()
        let operationBase = Int32(recording.operations.count) + Int32(depth * 1_000_000) + 1_000_000
        // A resumed second stage is applied only when something must read the tree it leaves.
        var run = recover(tree, firstInode: inodeBase, operationBase: operationBase, tag: "r\(depth)-", keepsShapes: depth == 0)
        let first = run.outcome
        // Later runs on what this one left number their inodes and operations past its own: a
        // recovery of ten thousand tabs makes more than ten thousand directories.
        let laterInodes = run.nextFreeInode
        // (Counted as if the trees removed or copied at once had been so entry by entry.)
        let laterOperations = operationBase + Int32(clamping: run.operationCount + run.collapsedSteps)
        // What recovery left is assessed (and recovered again) once per distinct tree.
        let aftermath = caches.aftermath(hash: run.finalHash, profile: profile) {
            run.materialise()
            return tree
        }
        var findings = aftermath.findings
        let floor = aftermath.floor
        privacyFound |= aftermath.privacyFound
        for (group, detail) in aftermath.privacyDetails where privacyDetails[group] == nil { privacyDetails[group] = detail }
        var second: Result<RecoveryOutcome, any Error>?
        // Recovery is deterministic: when it left the tree as it found it, a second run does the same.
        if case .success = first, depth == 0, run.finalHash != preHash {
            second = caches.secondRun(hash: run.finalHash) {
                run.materialise()
                let again = tree.mark()
                defer { tree.rollback(to: again) }
                return recover(tree, firstInode: laterInodes, operationBase: laterOperations, tag: "r\(depth)b-").outcome
            }
        }
        findings += RecoveryOracle.check(first: first, second: second)
        let setAside = caches.setAside(finalHash: run.finalHash, before: sessionsBefore, outcome: try? first.get()) {
            run.materialise()
            return SetAsideOracle.capture(
                tree, profile: recording.profile, outcome: try? first.get(), before: sessionsBefore,
                verifies: caches.manifestVerifies)
        }
        let collapsed = depth == 0 ? run.collapsedTerms : []
        let treesCollapsed = run.treesCollapsed
        var steps = depth == 0 ? run.operations : []
        tree.rollback(to: mark)
        findings += SetAsideOracle.check(setAside, before: tree, profile: recording.profile)
        findings += LiveSessionOracle.check(
            delisted: setAside.delisted, unsettled: setAside.unsettled, before: tree, profile: recording.profile)
        var crashes: [(state: StateVerdict.RecoveryCrash, verdict: StateVerdict)] = []
        if depth == 0 && steps.count + collapsed.count > 1 && shouldExploreRecoveryCrashes(steps, collapsed: collapsed) {
            if treesCollapsed > 0 {
                // The steps to crash between are those of the trees it removed or copied at once too.
                steps = recover(tree, firstInode: inodeBase, operationBase: operationBase, tag: "r\(depth)-", collapses: false).operations
                tree.rollback(to: mark)
            }
            crashes = exploreRecoveryCrashes(tree, steps: steps, operationBase: operationBase, inodeBase: laterInodes)
            if case .success = first {
                // Judged by the marker this launch found and where among its operations each crash came.
                let found = RestoreCrashAccount.marker(in: tree, profile: recording.profile)
                let phase = CrashLoopCountOracle.Phase(steps, profile: recording.profile)
                // Process crashes only: under power loss the marker's own writes may be lost,
                // so where the crash came does not say what the next launch must count.
                for index in crashes.indices where crashes[index].state.keep == nil && crashes[index].state.tear == nil {
                    let crash = crashes[index]
                    if let finding = CrashLoopCountOracle.check(
                        crash.state, steps: steps, phase: phase, found: found, next: crash.verdict.account)
                    {
                        crashes[index].state.findings.append(finding)
                    }
                }
            }
        }
        let outcome = try? first.get()
        return StateVerdict(
            findings: findings, floor: floor, privacyFound: privacyFound, privacyDetails: privacyDetails,
            detectedCrash: outcome?.detectedCrash, account: outcome?.account, recoveryCrashes: crashes)
    }

    /// Runs recovery on the state `tree` holds (leaving its changes there): run by the store, and
    /// finished from a remembered second stage when its first reaches a known midpoint (that stage
    /// left unapplied, see `RecoveryRun`).
    ///
    /// Trees removed without syncs, and trees copied with hard links, go at once (see
    /// `ModelFileSystem.removeTree` and `linkTree`) unless `collapses` is false or shortcuts are
    /// off; with `keepsShapes` (a run at depth 0) the terms of the steps they stand for are kept
    /// (`ModelFileSystem.collapsedTerms`), so that the run's shape is the one its steps made one
    /// by one would have, and those steps are made only for the runs whose crashes are explored.
    private func recover(
        _ tree: ModelTree, firstInode: Int32, operationBase: Int32, tag: String, keepsShapes: Bool = false,
        collapses: Bool = true
    ) -> RecoveryRun {
        let atOnce = collapses && caches.collapsesTrees
        // Runs that make every step one by one are resumed apart.
        let tailTag = atOnce ? tag : tag + "steps-"
        let system = ModelFileSystem(
            tree: tree, firstInode: firstInode, operationBase: operationBase, tracksExactContent: false,
            temporaryTag: tag)
        system.collapsesTrees = atOnce
        system.answersHintsByHash = caches.usesContentHashes
        if atOnce && keepsShapes {
            system.shapesOfRemoval = { path, inode in RecoverySignature.removalTerms(tree, path: path, inode: inode) }
            system.shapesOfLinking = { source, inode, destination, syncing in
                RecoverySignature.linkTerms(tree, source: source, inode: inode, destination: destination, syncing: syncing)
            }
        }
        recoveryRuns += 1
        let (outcome, resumed): (Result<RecoveryOutcome, any Error>, RecoveryTails.Tail?) =
            caches.resumesRecoveries
            ? tails.recover(runner, on: system, profile: recording.profile, tag: tailTag)
            : (Result { try runner.recover(fileSystem: system, profile: recording.profile) }, nil)
        return RecoveryRun(outcome: outcome, system: system, deferred: resumed)
    }

    /// Runs of recovery resumed from a remembered second stage.
    var resumedRecoveries: Int { tails.resumed }

    /// States left by a crash after each step of recovery (and within each of its writes), or a
    /// seeded sample of them when `recoveryCrashSample` asks (see `RecoveryCrashPoints`).
    private func exploreRecoveryCrashes(
        _ tree: ModelTree, steps: [FileOperation], operationBase: Int32,
        inodeBase: Int32
    ) -> [(state: StateVerdict.RecoveryCrash, verdict: StateVerdict)] {
        var result: [(state: StateVerdict.RecoveryCrash, verdict: StateVerdict)] = []
        let (points, total) = RecoveryCrashPoints.chosen(steps, seed: ContentHash.combine(seed, tree.hash), limit: recoveryCrashSample)
        if points.count < total {
            sampledRecoveries += 1
            unexploredRecoveryCrashes += total - points.count
        }
        let mark = tree.mark()
        var applied = 0
        for point in points {
            while applied < point.steps {
                tree.apply(steps[applied].effect, index: operationBase + Int32(applied))
                applied += 1
            }
            recoveryCrashStates += 1
            if let cut = point.cut {
                let inner = tree.mark()
                let step = steps[point.steps]
                TornWrite.apply(
                    .cut(operation: point.steps, bytes: cut), effect: step.effect, index: Int(operationBase) + point.steps, seed: 0,
                    to: tree)
                result.append((StateVerdict.RecoveryCrash(steps: point.steps, cut: cut), verdict(tree, depth: 1, inodeBase: inodeBase)))
                tree.rollback(to: inner)
            } else {
                result.append((StateVerdict.RecoveryCrash(steps: point.steps, cut: nil), verdict(tree, depth: 1, inodeBase: inodeBase)))
            }
        }
        tree.rollback(to: mark)
        if model == .pessimistic {
            let chosen = points.count < total ? Set(points.map(\.steps)) : nil
            result += exploreRecoveryPowerLoss(tree, steps: steps, operationBase: operationBase, inodeBase: inodeBase, at: chosen)
        }
        return result
    }

    /// Whether to explore the crashes of a recovery: yes for the first few states whose recovery
    /// has this shape (the set of its kinds of operation on kinds of path, with tab directories,
    /// session ids, temporary names and set-aside stamps generalised).
    private func shouldExploreRecoveryCrashes(_ steps: [FileOperation], collapsed: [UInt64]) -> Bool {
        let signature = RecoverySignature.of(steps, collapsed: collapsed)
        let seen = recoverySignatures[signature, default: 0]
        recoverySignatures[signature] = seen + 1
        return seen < recoveryCrashParents
    }
}
