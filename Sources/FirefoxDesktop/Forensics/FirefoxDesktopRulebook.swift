import Archive
import FileSystemKit
import SessionForensics
import SessionFormats
import SessionModel
import SessionStore

/// Firefox desktop's rulebook: `FirefoxDesktopValidator` and `FirefoxDesktopRepairPlanner`.
public struct FirefoxDesktopRulebook: BrowserRulebook {
    public init() {}

    public var family: any BrowserFamily { FirefoxDesktopFamily() }
    public var rules: [Rule] { Rule.firefoxDesktopRules }

    public func validate(_ read: InputRead) -> ValidationReport {
        FirefoxDesktopValidator().validate(read)
    }

    /// The repair of the whole profile (its session files make one session, whatever `session` names).
    public func planRepair(_ read: InputRead, report: ValidationReport, session: (id: SessionID, incognito: Bool)?) -> RepairPlan {
        FirefoxDesktopRepairPlanner().plan(read, report: report)
    }
}
