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
