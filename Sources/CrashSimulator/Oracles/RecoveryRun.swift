/// A recovery run on a crash state's tree: its outcome, the file system it ran on, and the
/// remembered second stage it was resumed with while that stage is not applied yet.
///
/// A run resumed from a `RecoveryTails.Tail` is complete in every respect the judge counts
/// (outcome, next inode, operations, the hash of the tree it ends on) before its operations are
/// applied; `materialise()` applies them when something reads the tree itself. The crashes inside
/// one large recovery all resume from one tail and mostly end on one tree, judged once, so most of
/// them never apply it; so do the crash states of the workload whose launch's first stage leaves
/// a tree an earlier one left.
struct RecoveryRun {
    var outcome: Result<RecoveryOutcome, any Error>
    let system: ModelFileSystem
    /// The second stage resumed from and not applied yet.
    private(set) var deferred: RecoveryTails.Tail?

    init(outcome: Result<RecoveryOutcome, any Error>, system: ModelFileSystem, deferred: RecoveryTails.Tail? = nil) {
        self.outcome = outcome
        self.system = system
        self.deferred = deferred
    }

    /// The hash of the tree when the run is complete.
    var finalHash: UInt64 { deferred?.finalHash ?? system.tree.hash }
    /// The inode the run's successors number from.
    var nextFreeInode: Int32 { deferred?.after.nextInode ?? system.nextFreeInode }
    /// Operations of the whole run.
    var operationCount: Int { system.operations.count + (deferred?.operations.count ?? 0) }
    /// The operations of the whole run, the deferred stage's included.
    var operations: [FileOperation] {
        guard let deferred else { return system.operations }
        return system.operations + deferred.operations
    }
    /// The terms of the steps the trees it removed or copied at once stand for, how many steps,
    /// and how many trees (see `ModelFileSystem.collapsedTerms`), the deferred stage's included.
    var collapsedTerms: [UInt64] { system.collapsedTerms + (deferred?.collapsedTerms ?? []) }
    var collapsedSteps: Int { system.collapsedSteps + (deferred?.collapsedSteps ?? 0) }
    var treesCollapsed: Int { system.treesCollapsed + (deferred?.treesCollapsed ?? 0) }

    /// Applies the deferred second stage, if any: the tree is then the one the run ends on.
    mutating func materialise() {
        guard let tail = deferred else { return }
        system.replay(
            tail.operations, after: tail.after, collapsedTerms: tail.collapsedTerms, collapsedSteps: tail.collapsedSteps,
            treesCollapsed: tail.treesCollapsed)
        assert(system.tree.hash == tail.finalHash, "a resumed second stage ended on another tree than the run it was remembered from")
        deferred = nil
    }
}
