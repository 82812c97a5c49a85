import CrashSimulator
import Testing

/// The check every browser store's tests make of its shortcuts: each crash state of a run judged
/// with the verdicts remembered (`StoreVerdicts`) and judged anew gets the same findings and outcome.
public enum StoreShortcutCheck {
    /// Judges every crash state of `run` (under the pessimistic model) both ways, expecting the
    /// same verdict of each; returns how many states were compared.
    @discardableResult
    public static func compare<Judge: StoreStateJudge>(
        _ run: Judge.Run, judgedBy _: Judge.Type, sourceLocation: SourceLocation = #_sourceLocation
    ) -> Int {
        let fast = StoreVerdicts<Judge>(run: run, takesShortcuts: true)
        let plain = StoreVerdicts<Judge>(run: run, takesShortcuts: false)
        var compared = 0
        _ = Explorer.judgeEveryState(run.recording, model: .pessimistic, seed: 1, maxStates: .max, keptFailures: 0, progress: nil) {
            tree, crashPoint in
            let a = fast.judge(tree, crashPoint: crashPoint)
            let b = plain.judge(tree, crashPoint: crashPoint)
            #expect(a.findings == b.findings && a.outcome == b.outcome, "crash point \(crashPoint)", sourceLocation: sourceLocation)
            compared += 1
            return []
        }
        return compared
    }
}
