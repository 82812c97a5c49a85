import SessionFormats
import SessionModel

/// What validating an input found: the findings, and how much was looked at.
public struct ValidationReport: Sendable {
    /// Findings session by session (in the input's order); within a session, those about the
    /// session first, then tab by tab, each worst first.
    public var findings: [Finding]
    /// Number of sessions validated.
    public var sessions: Int
    /// Number of tabs listed by the sessions that could be read.
    public var tabs: Int
    /// The browser family whose rules judged the input (`BrowserFamily.name`).
    public var browser = UnrecognisedFamily().name
    /// The browser of the family that wrote the input, when the family tells its browsers apart
    /// (Chromium desktop's products); nil: the family's own.
    public var product: BrowserProduct?
    /// The sessions validated, in the input's order, each with the file format it was read in.
    public var sources: [SessionSource] = []

    public init(findings: [Finding], sessions: Int, tabs: Int) {
        self.findings = findings
        self.sessions = sessions
        self.tabs = tabs
    }

    /// The product, or the family's own browser when the family does not tell its browsers apart.
    public var productNamed: BrowserProduct {
        BrowserFamilies.product(product, ofFamily: browser, evidence: "known from the format of its sessions")
    }

    public var errors: Int { findings.count { $0.severity == .error } }
    public var warnings: Int { findings.count { $0.severity == .warning } }
    public var infos: Int { findings.count { $0.severity == .info } }

    /// True when the input fails validation: errors, or with `strict` warnings too.
    public func fails(strict: Bool) -> Bool {
        errors > 0 || (strict && warnings > 0)
    }

    /// The names of the rules that fired, each once.
    public var ruleNames: Set<String> { Set(findings.map(\.rule.name)) }

    /// One session's findings sorted: about the session first, then by tab index (tab directories
    /// no listed tab owns last), each worst first; stable, so one rule's findings keep their file order.
    package static func ordered(_ findings: [Finding]) -> [Finding] {
        let rank = Dictionary(uniqueKeysWithValues: Rule.all.enumerated().map { ($1.name, $0) })
        func position(_ finding: Finding) -> Int {
            guard let tab = finding.tab else { return -1 }
            return tab.index ?? Int.max
        }
        return findings.enumerated().sorted { lhs, rhs in
            let (a, b) = (lhs.element, rhs.element)
            if position(a) != position(b) { return position(a) < position(b) }
            if a.isWorse(than: b) { return true }
            if b.isWorse(than: a) { return false }
            let ruleA = rank[a.rule.name] ?? Int.max
            let ruleB = rank[b.rule.name] ?? Int.max
            if ruleA != ruleB { return ruleA < ruleB }
            return lhs.offset < rhs.offset
        }.map(\.element)
    }
}
