/// A validation rule: a stable name, a fixed severity, what the browser does when it fires, a one-line
/// summary of what it means, and what repair does about it (the text of sessionctl-validate(1)).
public struct Rule: Sendable, Hashable, CustomStringConvertible {
    /// The stable identifier scripts match on, e.g. `tab-id-invalid`.
    public let name: String
    public let severity: Severity
    public let outcome: LaunchOutcome
    /// What the rule means, in one line.
    public let summary: String
    /// What repair does about it, or why it does nothing.
    public let repair: RuleRepair

    public init(_ name: String, _ severity: Severity, _ outcome: LaunchOutcome, _ summary: String, repair: RuleRepair) {
        self.name = name
        self.severity = severity
        self.outcome = outcome
        self.summary = summary
        self.repair = repair
    }

    public var description: String { name }

    /// Every rule of every registered rulebook, each once, in the order the rulebooks were
    /// registered and each lists its rules (the order of sessionctl-validate(1)).
    public static var all: [Rule] {
        var seen = Set<String>()
        return BrowserRulebooks.all.flatMap(\.rules).filter { seen.insert($0.name).inserted }
    }

    /// Looks a rule up by its name.
    public static func named(_ name: String) -> Rule? { all.first { $0.name == name } }
}
