import SessionModel

/// Which tab of a window a finding is about.
public struct TabReference: Sendable, Hashable {
    /// Position in the window's list, when the tab is listed in one.
    public var index: Int?
    /// The tab id, when known.
    public var id: TabID?

    public init(index: Int?, id: TabID?) {
        self.index = index
        self.id = id
    }
}

/// One problem found by the validator: which rule, where, and what Chrome would do about it.
public struct Finding: Sendable, Hashable {
    public var rule: Rule
    public var session: SessionID
    public var incognito: Bool
    /// The tab the finding is about, or nil when it is about the session or a file.
    public var tab: TabReference?
    /// The file or directory concerned, relative to the input's root.
    public var file: String
    /// The first bad byte of `file`, where there is one.
    public var offset: Int?
    /// What is wrong, for a person.
    public var message: String

    public init(rule: Rule, session: SessionID, incognito: Bool, tab: TabReference?, file: String, offset: Int?, message: String) {
        self.rule = rule
        self.session = session
        self.incognito = incognito
        self.tab = tab
        self.file = file
        self.offset = offset
        self.message = message
    }

    public var severity: Severity { rule.severity }
    public var outcome: LaunchOutcome { rule.outcome }

    /// True when this finding is worse than `other`: by severity, then by what Chrome does.
    public func isWorse(than other: Finding) -> Bool {
        if severity != other.severity { return severity < other.severity }
        return outcome.gravity < other.outcome.gravity
    }
}

/// The session and file that findings are reported against; makes findings without repeating them.
public struct FindingScope: Sendable, Hashable {
    public var session: SessionID
    public var incognito: Bool
    public var file: String

    public init(session: SessionID, incognito: Bool, file: String) {
        self.session = session
        self.incognito = incognito
        self.file = file
    }

    /// The same session, another file.
    public func file(_ path: String) -> FindingScope {
        FindingScope(session: session, incognito: incognito, file: path)
    }

    /// A finding of `rule` in this scope.
    public func finding(_ rule: Rule, tab: TabReference? = nil, offset: Int? = nil, _ message: String) -> Finding {
        Finding(rule: rule, session: session, incognito: incognito, tab: tab, file: file, offset: offset, message: message)
    }
}

/// At most `limit` findings of one rule in one scope, then one that counts the rest: a file of
/// millions of broken entries is reported in bounded time and memory.
package struct FindingCap {
    /// Findings of one rule listed per session before the rest are counted.
    package static let limit = 1000

    let rule: Rule
    let scope: FindingScope
    let limit: Int
    /// The findings listed so far, and those counted past the limit.
    private var listed: [Finding] = []
    private var more = 0

    /// A cap on the findings of `rule` in `scope`: the first `limit` listed, the others counted.
    /// A value the rules fill in their own loops (a generic over the subjects, called from a
    /// browser's module, would run unspecialised: generic metadata looked up for every element).
    package init(rule: Rule, scope: FindingScope, limit: Int = FindingCap.limit) {
        self.rule = rule
        self.scope = scope
        self.limit = limit
    }

    /// Adds a finding, made by `make` only while fewer than `limit` are listed.
    package mutating func add(_ make: () -> Finding) {
        if listed.count < limit { listed.append(make()) } else { more += 1 }
    }

    /// The findings listed, and one more counting those past the limit.
    package var findings: [Finding] {
        guard more > 0 else { return listed }
        return listed + [scope.finding(rule, "and \(more) more like \(limit == 1 ? "it" : "these") in this session, not listed one by one")]
    }
}

extension Finding {
    /// Whether repair acts on the finding: what its rule's repair says (`RuleRepair.repairsAlone`).
    public var needsRepair: Bool { rule.repair.repairsAlone }
}
