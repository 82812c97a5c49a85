import Archive
import FileSystemKit
import SessionForensics
import SessionFormats
import SessionModel
import SessionStore

/// Chromium desktop's rulebook: `ChromiumDesktopValidator` and `ChromiumDesktopRepairPlanner`.
public struct ChromiumDesktopRulebook: BrowserRulebook {
    public init() {}

    public var family: any BrowserFamily { ChromiumDesktopFamily() }
    public var rules: [Rule] { Rule.chromiumDesktopRules }

    public func validate(_ read: InputRead) -> ValidationReport {
        ChromiumDesktopValidator().validate(read)
    }

    /// The repair of the whole profile (its Session_ file holds every window, whatever `session` names).
    public func planRepair(_ read: InputRead, report: ValidationReport, session: (id: SessionID, incognito: Bool)?) -> RepairPlan {
        ChromiumDesktopRepairPlanner().plan(read, report: report)
    }
}
