import FileSystemKit
import SessionForensics
import SessionFormats
import SessionModel
import SessionStore

/// Converts a profile between Chrome's two session formats as Chrome does
/// (docs/chrome-ios-format.md, legacy format and migration), atomically per side, setting the
/// source aside rather than deleting it.
///
/// `plan` reads and converts in memory, touching nothing; `apply` performs a plan (see
/// `Migrator+Apply.swift` for the order of operations and why a crash cannot lose the window).
public struct Migrator: Sendable {
    /// The profile directory.
    public let profile: String
    /// Every file operation goes through it.
    public let writer: AtomicWriter
    /// Recorded in the manifests of set-aside sessions.
    public let toolVersion: String
    let clock: @Sendable () -> Timestamp
    let newGroupID: @Sendable () -> TabGroupID

    /// Where the new tree of one side is built: `<root>/.sessionctl-migration-new`, beside
    /// `SessionStorage` and `Sessions`, so that putting it in place is a rename within one directory.
    public static let newTree = ".sessionctl-migration-new"
    /// Where `--to legacy` moves the old `SessionStorage` (again within the same directory) before
    /// its sessions are set aside one by one.
    public static let displacedTree = InterruptedCommands.displacedTree

    public init(
        profile: String, writer: AtomicWriter = AtomicWriter(), toolVersion: String,
        clock: @escaping @Sendable () -> Timestamp = Aside.systemTime,
        newGroupID: @escaping @Sendable () -> TabGroupID = FormatConversion.randomGroupID
    ) {
        self.profile = profile
        self.writer = writer
        self.toolVersion = toolVersion
        self.clock = clock
        self.newGroupID = newGroupID
    }

    var fileSystem: any FileSystem { writer.fileSystem }

    /// An absolute path inside the profile.
    func path(_ relative: String...) -> String {
        relative.reduce(profile) { joinPath($0, $1) }
    }

    /// The subdirectories of a profile directory, sorted (names starting with a dot left out).
    func subdirectories(_ relative: String) throws(FileSystemError) -> [String] {
        guard fileSystem.kind(of: path(relative)) == .directory else { return [] }
        return try fileSystem.list(path(relative)).filter { name in
            !name.hasPrefix(".") && fileSystem.kind(of: path(relative, name)) == .directory
        }
    }

    /// Plans, and unless `dryRun` applies the plan, under the profile's lock (taken before the
    /// plan reads anything, so that another writer's work in progress is never read); returns the
    /// plan and what applying it did (nil for a dry run or an empty plan).
    public func run(to target: MigrationTarget, dryRun: Bool) throws -> (plan: MigrationPlan, outcome: MigrationOutcome?) {
        let aside = Aside(profile: profile, writer: writer, toolVersion: toolVersion, clock: clock)
        if dryRun {
            let planned = try plan(to: target)
            try checkPaths(of: planned, aside: aside)
            return (planned, nil)
        }
        return try aside.whileLocked {
            let locked = try plan(to: target)
            try checkPaths(of: locked, aside: aside)
            return (locked, locked.isEmpty ? nil : try apply(locked))
        }
    }

    /// Works out what migrating to `target` does, reading the profile and converting in memory.
    ///
    /// Throws `FormatError` when a live session cannot be read, `ForensicsError.cannotMigrate`
    /// when Chrome would lose a window or a history is unreadable: nothing is migrated then.
    public func plan(to target: MigrationTarget) throws -> MigrationPlan {
        guard target == .optimized || target == .legacy else {
            throw ForensicsError.cannotMigrate(session: profile, reason: "\(target) is not one of Chrome for iOS's formats")
        }
        var sides: [MigrationSidePlan] = []
        for incognito in [false, true] {
            let side = try planSide(incognito: incognito, target: target)
            if !side.isEmpty { sides.append(side) }
        }
        return MigrationPlan(profile: profile, target: target, sides: sides)
    }

    private func planSide(incognito: Bool, target: MigrationTarget) throws -> MigrationSidePlan {
        let root = ProfileLayout.stateRoot(incognito: incognito)
        let optimized = joinPath(root, ProfileLayout.optimizedDirectory)
        let legacy = joinPath(root, ProfileLayout.legacyDirectory)
        let hasOptimized = fileSystem.kind(of: path(optimized)) == .directory
        let hasLegacy = fileSystem.kind(of: path(legacy)) == .directory
        var side = MigrationSidePlan(
            incognito: incognito,
            abandonedNewTree: fileSystem.kind(of: path(joinPath(root, Migrator.newTree))) != nil,
            displacedSessions: try subdirectories(joinPath(root, Migrator.displacedTree)),
            shadowedLegacySessions: hasOptimized && hasLegacy ? try subdirectories(legacy) : [],
            conversion: nil
        )
        switch (target, hasOptimized, hasLegacy) {
        case (.optimized, false, true):
            side.conversion = try legacyToOptimized(root: root)
        case (.legacy, true, _):
            side.conversion = try optimizedToLegacy(root: root, incognito: incognito)
        default:
            break
        }
        return side
    }

    /// Reads every `Sessions/<id>/session.plist` of a side and converts it.
    private func legacyToOptimized(root: String) throws -> MigrationConversion {
        let incognito = root == ProfileLayout.incognitoDirectory
        let legacy = joinPath(root, ProfileLayout.legacyDirectory)
        var sessions: [MigratedSession] = []
        for id in try subdirectories(legacy) {
            let file = joinPath(legacy, id, ProfileLayout.legacySessionFile)
            guard fileSystem.kind(of: path(file)) == .file else { continue }
            let window = try LegacySessionCodec.decodeWindow(try fileSystem.read(path(file)), file: path(file))
            let (session, changes) = FormatConversion.toOptimized(window, id: id, incognito: incognito, newGroupID: newGroupID)
            let storedIDs = Set(window.tabs.compactMap(\.validID))
            var links: [StateLink] = []
            for tab in session.tabs where storedIDs.contains(tab.id) {
                let source = joinPath(root, ProfileLayout.legacyWebSessionsDirectory, LegacyWebSessions.fileName(for: tab.id))
                guard fileSystem.kind(of: path(source)) == .file,
                    let size = try? fileSystem.read(path(source)).count, size <= ProfileLayout.maxStateSize
                else { continue }
                links.append(StateLink(source: source, tab: tab.id))
            }
            sessions.append(
                MigratedSession(
                    id: id, sourceTabCount: window.tabs.count, session: session, legacyWindow: nil,
                    stateLinks: links, changes: changes))
        }
        return MigrationConversion(from: .legacy, sessions: sessions)
    }

    /// Reads every `SessionStorage/<id>` of a side, histories included, and converts it.
    private func optimizedToLegacy(root: String, incognito: Bool) throws -> MigrationConversion {
        let storage = joinPath(root, ProfileLayout.optimizedDirectory)
        let tree = ReadableTree(fileSystem: fileSystem, root: profile, errorPrefix: profile)
        let reader = SessionReader(input: LocatedInput(tree: tree, kind: .profile, sessions: []))
        var sessions: [MigratedSession] = []
        for id in try subdirectories(storage) {
            let source = SessionSource(id: id, incognito: incognito, kind: .optimizedDirectory, path: joinPath(storage, id))
            let stored: Session
            do {
                stored = try reader.read(source, history: true)
            } catch {
                throw ForensicsError.cannotMigrate(session: id, reason: error.description)
            }
            let (window, changes) = try FormatConversion.toLegacy(stored)
            sessions.append(
                MigratedSession(
                    id: id, sourceTabCount: stored.tabs.count,
                    session: window.session(id: id, incognito: incognito),
                    legacyWindow: window, stateLinks: [], changes: changes))
        }
        return MigrationConversion(from: .optimized, sessions: sessions)
    }

    /// Refuses a plan that would write, rename or set aside through a symbolic link or a special
    /// file below the profile (its state roots, their session and Backups directories, and the
    /// `Backups/<id>` of every session it may set aside): nothing leaves the profile. Checked
    /// before anything is written, by the dry run too.
    func checkPaths(of plan: MigrationPlan, aside: Aside) throws {
        for side in plan.sides {
            let root = ProfileLayout.stateRoot(incognito: side.incognito)
            let backups = SessionSetAside.backupsDirectory(incognito: side.incognito)
            var ids = Set(side.displacedSessions + side.shadowedLegacySessions)
            for storage in [ProfileLayout.optimizedDirectory, ProfileLayout.legacyDirectory] {
                try aside.checkInsideProfile(joinPath(root, storage))
                ids.formUnion(try subdirectories(joinPath(root, storage)))
            }
            for name in [Migrator.newTree, Migrator.displacedTree, ProfileLayout.legacyWebSessionsDirectory] {
                try aside.checkInsideProfile(joinPath(root, name))
            }
            try aside.checkInsideProfile(backups)
            for id in ids.sorted() { try aside.checkInsideProfile(joinPath(backups, id)) }
        }
    }
}

/// Names of the legacy format's raw web state files.
enum LegacyWebSessions {
    /// `Web_Sessions/<%08u>`: the tab id in decimal, zero-padded to 8 digits.
    static func fileName(for id: TabID) -> String {
        let digits = String(UInt32(bitPattern: id))
        return digits.count >= 8 ? digits : String(repeating: "0", count: 8 - digits.count) + digits
    }
}
