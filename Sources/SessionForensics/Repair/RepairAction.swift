import SessionModel

/// One step of a repair plan: what will be done, why, and the validate rule whose finding it fixes.
public struct RepairAction: Sendable, Hashable {
    /// The validate rule this step fixes (its name appears on every plan line).
    public var rule: Rule
    public var session: SessionID
    public var incognito: Bool
    /// The file or directory concerned, relative to the profile.
    public var file: String
    /// What will be done, for a person.
    public var action: String
    /// Why: what is wrong, and what Chrome would do about it.
    public var reason: String

    public init(rule: Rule, session: SessionID, incognito: Bool, file: String, action: String, reason: String) {
        self.rule = rule
        self.session = session
        self.incognito = incognito
        self.file = file
        self.action = action
        self.reason = reason
    }
}

/// A session's repair steps as they are recorded: at most `FindingCap.limit` of one rule listed,
/// the rest counted in one closing step per rule, so that a list of millions of broken entries
/// makes a plan of bounded size (as validate's findings are).
package struct RepairActionLog: Sendable {
    /// The steps listed one by one, in order.
    package private(set) var listed: [RepairAction] = []
    /// Steps of each rule recorded, listed or not, and the last one not listed.
    private var counts: [Rule: Int] = [:]
    private var lastUnlisted: [Rule: RepairAction] = [:]

    /// An empty log.
    package init() {}

    /// Records a step.
    package mutating func append(_ action: RepairAction) {
        let count = counts[action.rule, default: 0]
        counts[action.rule] = count + 1
        if count < FindingCap.limit {
            listed.append(action)
        } else {
            lastUnlisted[action.rule] = action
        }
    }

    /// Records `count` steps of `rule` in a row, as `count` calls of `append` would; `make(k)`
    /// makes the k-th and is called only for those listed and for the last one.
    package mutating func append(_ rule: Rule, count: Int, _ make: (Int) -> RepairAction) {
        guard count > 0 else { return }
        let before = counts[rule, default: 0]
        let listing = max(0, min(count, FindingCap.limit - before))
        for k in 0..<listing { listed.append(make(k)) }
        if count > listing { lastUnlisted[rule] = make(count - 1) }
        counts[rule] = before + count
    }

    /// Steps listed so far.
    package var count: Int { listed.count }

    /// Moves the last listed step to `index`.
    package mutating func moveLast(to index: Int) {
        listed.insert(listed.removeLast(), at: index)
    }

    /// Every listed step, then one per rule counting those not listed.
    package var actions: [RepairAction] {
        listed
            + lastUnlisted.keys.sorted { $0.name < $1.name }.compactMap { rule in
                guard var last = lastUnlisted[rule], let count = counts[rule] else { return nil }
                let more = count - FindingCap.limit
                last.action = "and \(more) more like \(more == 1 ? "it" : "these") in this session, not listed one by one"
                return last
            }
    }
}
