import FileSystemKit
import SessionForensics
import SessionFormats
import SessionModel
import SessionStore

/// Firefox for iOS's rulebook: `FirefoxIOSValidator` and `FirefoxRepairPlanner`.
public struct FirefoxIOSRulebook: BrowserRulebook {
    public init() {}

    public var family: any BrowserFamily { FirefoxIOSFamily() }
    public var rules: [Rule] { Rule.firefoxIOSRules }

    public func validate(_ read: InputRead) -> ValidationReport {
        FirefoxIOSValidator().validate(read)
    }

    /// Reads each window's files and its tabs' session states once, and validates them.

    public func planRepair(_ read: InputRead, report: ValidationReport, session: (id: SessionID, incognito: Bool)?) -> RepairPlan {
        FirefoxRepairPlanner().plan(read, report: report, session: session)
    }

    /// From the legacy tab archive to window files.
    public var migrations: [any ProfileMigration] { [FirefoxIOSMigration()] }
}
