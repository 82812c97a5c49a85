import SessionForensics
import SessionFormats
import SessionModel

/// Safari for iOS's rulebook: `SafariIOSValidator` and `SafariIOSRepairPlanner`.
public struct SafariIOSRulebook: BrowserRulebook {
    public init() {}

    public var family: any BrowserFamily { SafariIOSFamily() }
    public var rules: [Rule] { Rule.safariIOSRules }

    public func validate(_ read: InputRead) -> ValidationReport {
        SafariIOSValidator().validate(read)
    }

    /// The repair of the whole database (one file holds every window, whatever `session` names).
    public func planRepair(_ read: InputRead, report: ValidationReport, session: (id: SessionID, incognito: Bool)?) -> RepairPlan {
        SafariIOSRepairPlanner().plan(read, report: report)
    }
}
