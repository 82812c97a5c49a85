/// A store judge's verdicts, remembered by the state's tree and the saves that had returned
/// (`Shortcut.storeVerdicts`): the one cache of every store's crash test, switched off by
/// `--no-shortcuts` and compared with a run without it by `.ci/shortcuts`.
package final class StoreVerdicts<Judge: StoreStateJudge>: StoreJudging {
    private let judge: Judge
    private let run: Judge.Run
    private let verdicts: Memo<(findings: [Finding], outcome: StoreOutcome)>
    private var states: Set<MemoKey> = []

    /// Judges states of `run`, remembering the verdicts when `takesShortcuts`.
    package init(run: Judge.Run, takesShortcuts: Bool) {
        self.run = run
        judge = Judge(run: run, takesShortcuts: takesShortcuts)
        verdicts = Memo(.storeVerdicts, takesShortcuts: takesShortcuts)
    }

    /// Distinct states judged: trees with the saves that had returned.
    package var judged: Int { states.count }

    /// The verdict on `tree` crashed after `crashPoint` operations. It depends on the tree (its
    /// content hash) and on how many saves had returned, which `crashPoint` decides.
    package func judge(_ tree: ModelTree, crashPoint: Int) -> (findings: [Finding], outcome: StoreOutcome) {
        let returned = run.saveEnds.prefix { $0 <= crashPoint }.count
        let key = verdicts.key.with(tree.hash).with(returned)
        states.insert(key)
        return verdicts.value(key) { judge.judge(tree, crashPoint: crashPoint, returned: returned) }
    }
}
