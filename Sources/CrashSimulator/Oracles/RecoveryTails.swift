/// Remembers the second stage of recent recoveries by where it started, so that a recovery whose
/// first stage arrives where an earlier one's did finishes as that one did without the store.
///
/// The store's launch runs in two stages (`SessionService.beginLaunch`, then
/// `PendingLaunch.finish()`). The second stage is a deterministic function of the tree (names,
/// bytes, and which inode each name points at: the operations it records name inodes), the file
/// system's counters (next inode, temporary names given) and what the first stage hands it (its
/// report and the launch time, as `RecoveryRunner` digests them). When all of these are the same
/// as at an earlier midpoint, the second stage makes the same calls with the same answers, so its
/// recorded operations and outcome are reused: the operations are applied to the tree, not run,
/// and only when something asks for the tree the run leaves (see `StateJudge`).
///
/// This is what makes the crashes inside a large recovery cheap: a crash anywhere in the copy of a
/// session being set aside leaves a temporary directory that the next launch's sweep removes,
/// after which every one of those states is the same, and the copy of a thousand tabs that follows is
/// applied from the first of them. Operations refer to the tree's name ids, so one instance
/// serves one tree (one partition); it keeps the tails of the latest runs only.
final class RecoveryTails {
    /// The second stage of one run.
    struct Tail {
        var operations: ArraySlice<FileOperation>
        var after: (nextInode: Int32, temporaryNames: Int)
        var outcome: Result<RecoveryOutcome, any Error>
        /// The tree's hash when the run ended: two runs from the same midpoint end on the same tree.
        var finalHash: UInt64
        /// What the run's file system kept of the trees it removed or copied at once (see
        /// `ModelFileSystem.collapsedTerms`): their terms, the steps they stood for, how many trees.
        var collapsedTerms: ArraySlice<UInt64>
        var collapsedSteps: Int
        var treesCollapsed: Int
    }

    private var tails: [UInt64: Tail] = [:]
    private var heldWeight = 0
    /// Weight held at most (see `weight(of:)`); beyond, the memory starts afresh (the states that
    /// share a tail are the crashes of one recovery, explored one after another).
    var capacity = 500_000
    /// Times a run was resumed from a tail.
    private(set) var resumed = 0

    /// The key of a midpoint: the tree, the counters, the first stage's digest and the run's kind
    /// (its temporary names); nil when no run can resume there.
    private func key(_ system: ModelFileSystem, digest: UInt64, tag: String) -> UInt64? {
        guard let counters = system.counters else { return nil }
        // The tail's operations name inodes: which inode each name points at must be the same.
        return MemoKey(Shortcut.recoveryTails.rawValue).with(system.tree.hash).with(system.tree.linkage).with(digest).with(
            counters.nextInode
        )
        .with(counters.temporaryNames).with(tag).value
    }

    /// Runs recovery with `runner` on `system`: when its first stage reaches a remembered midpoint,
    /// finishes with that run's outcome and returns its second stage, not applied (see
    /// `ModelFileSystem.replay`); otherwise runs it whole and remembers its second stage.
    func recover(
        _ runner: any RecoveryRunner, on system: ModelFileSystem, profile: String,
        tag: String
    ) -> (outcome: Result<RecoveryOutcome, any Error>, resumed: Tail?) {
        var midpoint: (key: UInt64, operations: Int, shapes: Int, steps: Int, removed: Int)?
        var resumed: Tail?
        let outcome: Result<RecoveryOutcome, any Error> = Result {
            try runner.recover(fileSystem: system, profile: profile) { digest in
                guard let key = key(system, digest: digest, tag: tag) else { return nil }
                if let tail = tails[key] {
                    resumed = tail
                    return tail.outcome
                }
                midpoint = (key, system.operations.count, system.collapsedTerms.count, system.collapsedSteps, system.treesCollapsed)
                return nil
            }
        }
        if resumed != nil {
            self.resumed += 1
        } else if let midpoint {
            remember(system, from: midpoint, outcome: outcome)
        }
        return (outcome, resumed)
    }

    /// What a tail of the run on `system` holds, in operations: one per operation and per term of
    /// a tree removed or copied at once, and one per 64 bytes its writes carry (a set-aside of ten
    /// thousand tabs is a few operations and a manifest of about a megabyte).
    private static func weight(of system: ModelFileSystem) -> Int {
        var bytes = 0
        for operation in system.operations where operation.kind == .write { bytes += operation.size }
        return system.operations.count + system.collapsedTerms.count + bytes / 64
    }

    /// Remembers the second stage of the run that ended on `system`, begun at `midpoint` (its key,
    /// and the run's operations, collapsed terms and steps, and trees collapsed until then).
    private func remember(
        _ system: ModelFileSystem, from midpoint: (key: UInt64, operations: Int, shapes: Int, steps: Int, removed: Int),
        outcome: Result<RecoveryOutcome, any Error>
    ) {
        guard let after = system.counters else { return }
        let operations = system.operations[midpoint.operations...]
        // The slices keep the run's whole operations and terms alive, the first stage's too.
        let weight = RecoveryTails.weight(of: system)
        if heldWeight + weight > capacity {
            tails.removeAll()
            heldWeight = 0
        }
        heldWeight += weight
        tails[midpoint.key] = Tail(
            operations: operations, after: after, outcome: outcome, finalHash: system.tree.hash,
            collapsedTerms: system.collapsedTerms[midpoint.shapes...],
            collapsedSteps: system.collapsedSteps - midpoint.steps,
            treesCollapsed: system.treesCollapsed - midpoint.removed)
    }
}
