import SessionFormats
import SessionModel

/// What a browser family's browser does with each problem, and what repair writes for it: the
/// family's rules (validate) and its repair plan, made from those rules' findings.
public protocol BrowserRulebook: Sendable {
    /// The family whose inputs the rulebook judges.
    var family: any BrowserFamily { get }
    /// Every finding about what `read` holds (read at least as deep as `.tabs`); reads nothing more.
    func validate(_ read: InputRead) -> ValidationReport
    /// Every finding about `input`, read as the family reads it (each file once) without holding
    /// more of it at once than the checks need: what `validate` alone does.
    func validate(_ input: LocatedInput) -> ValidationReport
    /// The repair of `read` (a profile read for a rewrite) made from `report`, validate's findings
    /// about it; with `session`, of that session alone.
    func planRepair(_ read: InputRead, report: ValidationReport, session: (id: SessionID, incognito: Bool)?) -> RepairPlan
}

/// Chrome for iOS's rulebook: `Validator` and `RepairPlanner`.
public struct ChromeIOSRulebook: BrowserRulebook {
    public init() {}

    public var family: any BrowserFamily { ChromeIOSFamily() }

    public func validate(_ read: InputRead) -> ValidationReport {
        Validator().validate(read)
    }

    public func validate(_ input: LocatedInput) -> ValidationReport {
        Validator().validate(input)
    }

    public func planRepair(_ read: InputRead, report: ValidationReport, session: (id: SessionID, incognito: Bool)?) -> RepairPlan {
        RepairPlanner().plan(read, report: report, session: session)
    }
}

/// Firefox for iOS's rulebook: `FirefoxIOSValidator` and `FirefoxRepairPlanner`.
public struct FirefoxIOSRulebook: BrowserRulebook {
    public init() {}

    public var family: any BrowserFamily { FirefoxIOSFamily() }

    public func validate(_ read: InputRead) -> ValidationReport {
        FirefoxIOSValidator().validate(read)
    }

    /// Reads each window's files and its tabs' session states once, and validates them.
    public func validate(_ input: LocatedInput) -> ValidationReport {
        FirefoxIOSValidator().validate(family.read(input, depth: .tabs, backups: false))
    }

    public func planRepair(_ read: InputRead, report: ValidationReport, session: (id: SessionID, incognito: Bool)?) -> RepairPlan {
        FirefoxRepairPlanner().plan(read, report: report, session: session)
    }
}

/// Firefox desktop's rulebook: `FirefoxDesktopValidator` and `FirefoxDesktopRepairPlanner`.
public struct FirefoxDesktopRulebook: BrowserRulebook {
    public init() {}

    public var family: any BrowserFamily { FirefoxDesktopFamily() }

    public func validate(_ read: InputRead) -> ValidationReport {
        FirefoxDesktopValidator().validate(read)
    }

    /// Reads each session file once, and validates them.
    public func validate(_ input: LocatedInput) -> ValidationReport {
        FirefoxDesktopValidator().validate(family.read(input, depth: .tabs, backups: false))
    }

    /// The repair of the whole profile (its session files make one session, whatever `session` names).
    public func planRepair(_ read: InputRead, report: ValidationReport, session: (id: SessionID, incognito: Bool)?) -> RepairPlan {
        FirefoxDesktopRepairPlanner().plan(read, report: report)
    }
}

/// Chromium desktop's rulebook: `ChromiumDesktopValidator` and `ChromiumDesktopRepairPlanner`.
public struct ChromiumDesktopRulebook: BrowserRulebook {
    public init() {}

    public var family: any BrowserFamily { ChromiumDesktopFamily() }

    public func validate(_ read: InputRead) -> ValidationReport {
        ChromiumDesktopValidator().validate(read)
    }

    /// Reads each session file once, and validates them.
    public func validate(_ input: LocatedInput) -> ValidationReport {
        ChromiumDesktopValidator().validate(family.read(input, depth: .tabs, backups: false))
    }

    /// The repair of the whole profile (its Session_ file holds every window, whatever `session` names).
    public func planRepair(_ read: InputRead, report: ValidationReport, session: (id: SessionID, incognito: Bool)?) -> RepairPlan {
        ChromiumDesktopRepairPlanner().plan(read, report: report)
    }
}

/// The rulebook of every registered browser family (`BrowserFamilies`).
public enum BrowserRulebooks {
    /// Every registered rulebook, one a family.
    public static let all: [any BrowserRulebook] = [
        ChromeIOSRulebook(), FirefoxIOSRulebook(), FirefoxDesktopRulebook(), ChromiumDesktopRulebook()
    ]

    /// The rulebook of the family that located `input`.
    public static func rulebook(for input: LocatedInput) -> any BrowserRulebook {
        all.first { $0.family.name == input.browser } ?? ChromeIOSRulebook()
    }

    /// Reads `input` as its family reads it and validates it with its rulebook.
    public static func validate(_ input: LocatedInput) -> ValidationReport {
        rulebook(for: input).validate(input)
    }
}
