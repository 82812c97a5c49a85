/// What `sessionctl repair` does about a rule's findings: the rulebook's answer, carried by the
/// rule itself, that the planner follows and sessionctl-validate(1) prints under each rule.
public enum RuleRepair: Sendable, Hashable {
    /// A finding of the rule is repaired on its own: the step, in one line.
    case step(String)
    /// A finding of the rule is acted on only when its session is rewritten for another
    /// finding (a rewrite must then decide what to carry over): what happens then.
    case withRewrite(String)
    /// Repair leaves the finding as it is: why.
    case none(String)

    /// Whether a finding of the rule alone makes repair act.
    public var repairsAlone: Bool {
        if case .step = self { return true }
        return false
    }

    /// The line sessionctl-validate(1) shows under the rule: `Repair: ...`.
    public var manPageLine: String {
        switch self {
        case .step(let text): "Repair: \(text)"
        case .withRewrite(let text): "Repair, when it rewrites the session for another finding: \(text)"
        case .none(let text): "Repair: none; \(text)"
        }
    }
}
