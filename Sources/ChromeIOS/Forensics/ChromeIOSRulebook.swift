import SessionForensics
import SessionFormats
import SessionModel

/// Chrome for iOS's rulebook: `Validator` and `RepairPlanner`.
public struct ChromeIOSRulebook: BrowserRulebook {
    public init() {}

    public var family: any BrowserFamily { ChromeIOSFamily() }
    /// The optimized format's rules, then the legacy format's.
    public var rules: [Rule] { Rule.optimizedRules + Rule.legacyRules }

    public func validate(_ read: InputRead) -> ValidationReport {
        Validator().validate(read)
    }

    public func validate(_ input: LocatedInput) -> ValidationReport {
        Validator().validate(input)
    }

    public func planRepair(_ read: InputRead, report: ValidationReport, session: (id: SessionID, incognito: Bool)?) -> RepairPlan {
        RepairPlanner().plan(read, report: report, session: session)
    }

    /// To the optimized format and to the legacy one.
    public var migrations: [any ProfileMigration] { [ChromeIOSMigration(to: .optimized), ChromeIOSMigration(to: .legacy)] }

    /// A document's sessions written as Chrome's session directories.
    public var sessionImport: (any SessionImport)? { ChromeIOSImport() }
}
