import SessionFormats
import SessionModel

/// The format `migrate --to` converts a profile to: its name, the session format written, and
/// the family whose profiles it converts (each family's rulebook lists its `ProfileMigration`s).
public struct MigrationTarget: Sendable, Hashable, CustomStringConvertible {
    /// The name `--to` takes and documents give.
    public let rawValue: String
    /// The session format of the target.
    public let format: SessionFormat
    /// The name of the browser family whose profiles the target belongs to.
    public let browser: String
    /// What stays of the source, said before what is set aside (a dry run's last line): empty
    /// when the source itself is set aside.
    public let kept: String
    /// What a run sets aside under `Backups/`.
    public let setAside: String

    public init(rawValue: String, format: SessionFormat, browser: String, kept: String = "", setAside: String) {
        self.rawValue = rawValue
        self.format = format
        self.browser = browser
        self.kept = kept
        self.setAside = setAside
    }

    public var description: String { rawValue }
}

/// Everything `migrate` will do to a profile, worked out before anything is touched
/// (and all that `--dry-run` shows).
public struct MigrationPlan: Sendable {
    public var profile: String
    public var target: MigrationTarget
    /// The regular side, then the incognito side (`OTR/`), where there is anything to do.
    public var sides: [MigrationSidePlan]

    /// True when the profile is already in the target format and nothing is left over.
    public var isEmpty: Bool { sides.allSatisfy(\.isEmpty) }

    /// Every stored property, as given.
    package init(profile: String, target: MigrationTarget, sides: [MigrationSidePlan]) {
        self.profile = profile
        self.target = target
        self.sides = sides
    }
}

/// What `migrate` does to one side of a profile: first it finishes what an interrupted run (or an
/// older migration) left, then it converts the live sessions.
public struct MigrationSidePlan: Sendable {
    public var incognito: Bool
    /// A half-written new tree of an interrupted run (`.sessionctl-migration-new`): removed.
    public var abandonedNewTree: Bool
    /// Sessions of an old optimized tree that an interrupted run moved out of the way
    /// (`.sessionctl-migration-old/<id>`): set aside.
    public var displacedSessions: [SessionID]
    /// Legacy sessions Chrome ignores because `SessionStorage/` exists beside them: set aside.
    public var shadowedLegacySessions: [SessionID]
    /// The conversion of the live sessions; nil when the side is already in the target format.
    public var conversion: MigrationConversion?

    public var isEmpty: Bool {
        !abandonedNewTree && displacedSessions.isEmpty && shadowedLegacySessions.isEmpty && conversion == nil
    }

    /// Every stored property, as given.
    package init(
        incognito: Bool, abandonedNewTree: Bool, displacedSessions: [SessionID], shadowedLegacySessions: [SessionID],
        conversion: MigrationConversion?
    ) {
        self.incognito = incognito
        self.abandonedNewTree = abandonedNewTree
        self.displacedSessions = displacedSessions
        self.shadowedLegacySessions = shadowedLegacySessions
        self.conversion = conversion
    }
}

/// The live sessions of one side, converted in memory.
public struct MigrationConversion: Sendable {
    public var from: SessionFormat
    public var sessions: [MigratedSession]
    /// Every change made on the way, all sessions together.
    public var changes: [MigrationChange] { sessions.flatMap(\.changes) }

    /// Every stored property, as given.
    package init(from: SessionFormat, sessions: [MigratedSession]) {
        self.from = from
        self.sessions = sessions
    }
}

/// One window converted: what is written for it, and what became of it on the way.
public struct MigratedSession: Sendable {
    public var id: SessionID
    /// Tabs in the source window.
    public var sourceTabCount: Int
    /// The session as written: the optimized list with histories (target optimized), or as the
    /// legacy window reads back (target legacy).
    public var session: Session
    /// The window written as session.plist (target legacy only).
    public var legacyWindow: LegacyWindow?
    /// Legacy `Web_Sessions/<%08u>` files hard-linked as a tab's `state.pb` (target optimized only).
    public var stateLinks: [StateLink]
    public var changes: [MigrationChange]

    /// Every stored property, as given.
    package init(
        id: SessionID, sourceTabCount: Int, session: Session, legacyWindow: LegacyWindow?, stateLinks: [StateLink],
        changes: [MigrationChange]
    ) {
        self.id = id
        self.sourceTabCount = sourceTabCount
        self.session = session
        self.legacyWindow = legacyWindow
        self.stateLinks = stateLinks
        self.changes = changes
    }
}

/// A legacy web state file that becomes a tab's `state.pb` by a hard link, as in Chrome's migration.
public struct StateLink: Sendable, Hashable {
    /// `Web_Sessions/<%08u>`, relative to the side's root.
    public var source: String
    public var tab: TabID

    /// Every stored property, as given.
    package init(source: String, tab: TabID) {
        self.source = source
        self.tab = tab
    }
}
