import FileSystemKit
import SessionFormats
import SessionModel
import SessionStore

/// One conversion `migrate --to` makes of a family's profiles, listed by the family's rulebook
/// (`BrowserRulebook.migrations`).
public protocol ProfileMigration: Sendable {
    /// What it converts to.
    var target: MigrationTarget { get }
    /// Locates the profile `path` names (or holds) on the file system of `environment`'s writer,
    /// plans the conversion and, unless `dryRun`, applies it under the profile's lock.
    func run(_ path: String, toolVersion: String, dryRun: Bool, environment: MigrationEnvironment) throws -> MigrationRun
}

extension ProfileMigration {
    /// The conversion on disk, timed by the system clock.
    public func run(_ path: String, toolVersion: String, dryRun: Bool) throws -> MigrationRun {
        try run(path, toolVersion: toolVersion, dryRun: dryRun, environment: MigrationEnvironment())
    }
}

/// What a migration writes through and takes its times and new ids from: the disk and the
/// system clock for `migrate`, a recording file system and a fixed sequence for crash-test's
/// `--command migrate` runs (so that a run is the same every time).
public struct MigrationEnvironment: Sendable {
    /// The writer every file operation goes through.
    public var writer: AtomicWriter
    /// The time set-aside entries are stamped with.
    public var clock: @Sendable () -> Timestamp
    /// The id of each tab group a conversion creates; nil: the migration's own (random) ids.
    public var newGroupID: (@Sendable () -> TabGroupID)?

    public init(
        writer: AtomicWriter = AtomicWriter(), clock: @escaping @Sendable () -> Timestamp = Aside.systemTime,
        newGroupID: (@Sendable () -> TabGroupID)? = nil
    ) {
        self.writer = writer
        self.clock = clock
        self.newGroupID = newGroupID
    }
}

/// What a `migrate` run did: the profile it found, the plan, and what applying it wrote and set
/// aside (nil on a dry run or when there was nothing to do).
public struct MigrationRun: Sendable {
    /// The profile directory, when the path given was inside it rather than it.
    public var foundInside: String?
    public var plan: MigrationPlan
    public var outcome: MigrationOutcome?

    public init(foundInside: String?, plan: MigrationPlan, outcome: MigrationOutcome?) {
        self.foundInside = foundInside
        self.plan = plan
        self.outcome = outcome
    }
}

/// Every conversion of every registered family, in registration order.
public enum ProfileMigrations {
    /// Each registered rulebook's migrations.
    public static var all: [any ProfileMigration] { BrowserRulebooks.all.flatMap(\.migrations) }

    /// Their targets' names, as `--to` takes them.
    public static var names: [String] { all.map(\.target.rawValue) }

    /// The migration `--to name` asks for.
    public static func named(_ name: String) -> (any ProfileMigration)? {
        all.first { $0.target.rawValue == name }
    }
}
