import SessionForensics
import SessionFormats
import SessionModel

/// Safari for iOS's rulebook: `SafariIOSValidator`. Repair plans nothing: what it finds is kept
/// as it is (a database is never rewritten in place of the one Safari wrote).
public struct SafariIOSRulebook: BrowserRulebook {
    public init() {}

    public var family: any BrowserFamily { SafariIOSFamily() }
    public var rules: [Rule] { Rule.safariIOSRules }

    public func validate(_ read: InputRead) -> ValidationReport {
        SafariIOSValidator().validate(read)
    }

    /// Reads the database once, and validates it.
    public func validate(_ input: LocatedInput) -> ValidationReport {
        SafariIOSValidator().validate(family.read(input, depth: .tabs, backups: false))
    }

    /// Nothing to write: every finding is left unrepaired, and said so.
    public func planRepair(_ read: InputRead, report: ValidationReport, session: (id: SessionID, incognito: Bool)?) -> RepairPlan {
        .unrepaired(report)
    }
}
