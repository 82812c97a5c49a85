import SessionFormats
import SessionModel
import Synchronization

/// What a browser family's browser does with each problem, and what repair writes for it: the
/// family's rules (validate) and its repair plan, made from those rules' findings.
public protocol BrowserRulebook: Sendable {
    /// The family whose inputs the rulebook judges.
    var family: any BrowserFamily { get }
    /// Every rule its findings are of, in the order they are documented.
    var rules: [Rule] { get }
    /// Every finding about what `read` holds (read at least as deep as `.tabs`); reads nothing more.
    func validate(_ read: InputRead) -> ValidationReport
    /// Every finding about `input`, read as the family reads it (each file once) without holding
    /// more of it at once than the checks need: what `validate` alone does.
    func validate(_ input: LocatedInput) -> ValidationReport
    /// The repair of `read` (a profile read for a rewrite) made from `report`, validate's findings
    /// about it; with `session`, of that session alone.
    func planRepair(_ read: InputRead, report: ValidationReport, session: (id: SessionID, incognito: Bool)?) -> RepairPlan
    /// The conversions `migrate` makes of the family's profiles (none by default).
    var migrations: [any ProfileMigration] { get }
    /// How `import` writes a document's sessions as the family's files; nil when it writes none.
    var sessionImport: (any SessionImport)? { get }
}

extension BrowserRulebook {
    /// What `validate(_ read:)` finds of `input` read by its family as deep as the checks need
    /// (its tabs, without backups).
    public func validate(_ input: LocatedInput) -> ValidationReport {
        validate(family.read(input, depth: .tabs, backups: false))
    }

    public var migrations: [any ProfileMigration] { [] }
    public var sessionImport: (any SessionImport)? { nil }
}

/// The rulebook of every registered browser family (`BrowserFamilies`), registered with it.
public enum BrowserRulebooks {
    private static let registered = Mutex<[any BrowserRulebook]>([])

    /// Every registered rulebook, one a family, in the order they were registered.
    public static var all: [any BrowserRulebook] { registered.withLock { $0 } }

    /// Registers `rulebooks`, each once (by its family's name), and their families.
    public static func register(_ rulebooks: [any BrowserRulebook]) {
        BrowserFamilies.register(rulebooks.map(\.family))
        registered.withLock { list in
            for rulebook in rulebooks where !list.contains(where: { $0.family.name == rulebook.family.name }) { list.append(rulebook) }
        }
    }

    /// The rulebook of the family that located `input` (one that finds nothing for a family
    /// without one).
    public static func rulebook(for input: LocatedInput) -> any BrowserRulebook {
        all.first { $0.family.name == input.browser } ?? EmptyRulebook(family: input.family)
    }

    /// Reads `input` as its family reads it and validates it with its rulebook.
    public static func validate(_ input: LocatedInput) -> ValidationReport {
        rulebook(for: input).validate(input)
    }
}

/// The rulebook of a family registered without one: no rule, no finding, nothing to repair.
struct EmptyRulebook: BrowserRulebook {
    var family: any BrowserFamily
    var rules: [Rule] { [] }

    func validate(_ read: InputRead) -> ValidationReport {
        var report = ValidationReport(findings: [], sessions: read.sessions.count, tabs: 0)
        report.browser = family.name
        return report
    }

    func validate(_ input: LocatedInput) -> ValidationReport {
        validate(family.read(input, depth: .tabs, backups: false))
    }

    func planRepair(_ read: InputRead, report: ValidationReport, session: (id: SessionID, incognito: Bool)?) -> RepairPlan {
        .unrepaired(report)
    }
}
