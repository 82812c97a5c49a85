import Archive
import FileSystemKit
import Foundation
import SessionForensics
import SessionFormats
import SessionModel
import SessionStore

/// `migrate --to window-data`: converts a Firefox for iOS profile's legacy tab archive to a window
/// file as Firefox's own one-time migration does (`FirefoxLegacyArchive.migratedWindow`: each
/// tab's page, title, favicon, privacy, creation time and group kept, its last use set to the
/// time of the migration, its history dropped). The archive stays; a window file Firefox made of
/// nothing (its migration found no tab) is set aside before it is replaced.
///
/// Where `repair` keeps what the migration drops, this does what Firefox would: for a user who
/// wants the profile as Firefox would have left it.
public struct FirefoxMigrator: Sendable {
    /// The profile directory (the container or `profile.profile`, as `AsideTarget` located it).
    public let profile: String
    public let writer: AtomicWriter
    public let toolVersion: String
    let now: @Sendable () -> Date

    public init(
        profile: String, writer: AtomicWriter = AtomicWriter(), toolVersion: String, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.profile = profile
        self.writer = writer
        self.toolVersion = toolVersion
        self.now = now
    }

    /// Plans, and unless `dryRun` applies the plan, under the profile's lock.
    public func run(dryRun: Bool) throws -> (plan: MigrationPlan, outcome: MigrationOutcome?) {
        let aside = Aside(profile: profile, writer: writer, toolVersion: toolVersion)
        if dryRun { return (try plan().plan, nil) }
        return try aside.whileLocked(settling: false) {
            let (plan, rewrite) = try self.plan()
            guard let rewrite else { return (plan, nil) }
            return (plan, try apply(rewrite, aside: aside))
        }
    }

    /// What the migration converts, and the window file it writes (nil when there is nothing to do).
    func plan() throws -> (plan: MigrationPlan, rewrite: FileRewrite?) {
        let input = try InputOpener.open(profile, fileSystem: writer.fileSystem, browser: FirefoxIOSFamily())
        let read = InputRead(input, depth: .tabs)
        let empty = MigrationPlan(profile: profile, target: .windowData, sides: [])
        let archives = read.sessions.compactMap { session -> (SessionRead, FirefoxLegacyArchive)? in
            guard case .success(let archive)? = session.firefoxLegacy?.archive else { return nil }
            return (session, archive)
        }
        // Firefox migrates codableTabsState.archive; tabsState.archive is converted the same way.
        guard let (session, archive) = archives.first(where: { !$0.1.tabs.isEmpty }) else {
            // Archives that read with no tab have nothing to convert; one that does not read is an error.
            if archives.isEmpty, let damaged = read.sessions.first(where: { $0.firefoxLegacy != nil }) {
                throw ForensicsError.cannotMigrate(session: damaged.source.id, reason: "the archive does not read: nothing to convert")
            }
            return (empty, nil)
        }
        guard !FirefoxLegacyRules.migrationRan(read) else {
            let windowTabs = read.sessions.compactMap(\.firefoxWindow).reduce(0) { $0 + $1.mergedTabs.count }
            throw ForensicsError.cannotMigrate(
                session: session.source.id,
                reason:
                    "Firefox has used window files since its migration (they hold \(windowTabs) tab\(windowTabs == 1 ? "" : "s")) and never reads the archive again (sessionctl inspect shows both)"
            )
        }
        let name = lastPathComponent(session.source.path)
        var changes: [MigrationChange] = []
        func change(_ tab: Int?, _ origin: MigrationChange.Origin, _ message: String) {
            changes.append(MigrationChange(session: name, incognito: false, tab: tab, origin: origin, message: message))
        }
        if name != FirefoxIOSLayout.legacyCodableArchive {
            change(
                nil, .sessionctl, "today's Firefox reads codableTabsState.archive alone: \(name) is converted as it would convert that one")
        } else if let refusal = archive.refusal {
            change(
                nil, .sessionctl,
                "Firefox's decoder refuses the archive (\(refusal)) and would migrate no tab: every tab that reads is converted")
        }
        guard let target = FirefoxLegacyTarget(read: read, archives: [session]) else { return (empty, nil) }
        let windowID = target.windowID
        var window = archive.migratedWindow(
            id: windowID, migrationTime: now().timeIntervalSince1970 - FirefoxTime.referenceOffset, newUUID: target.newUUID)
        for (index, tab) in archive.tabs.enumerated() {
            if tab.urls.count > 1 { change(index, .firefox, "its back/forward history (\(tab.urls.count) pages) is dropped") }
            if tab.screenshotUUID == nil { change(index, .firefox, "it has no screenshotUUID: it is given a new UUID") }
        }
        change(nil, .firefox, "each tab's last use becomes the time of the migration; the UUID strings and hasHomeScreenshot are dropped")
        guard let bytes = FirefoxWindowRepair.loadableBytes(&window) else {
            throw ForensicsError.cannotMigrate(session: name, reason: "the converted window would not load in Firefox")
        }
        let rewrite = FileRewrite(
            window: windowID, file: target.file, setAside: target.replaced, removes: [], actions: [], tabs: window.tabs.count, bytes: bytes)
        let migrated = MigratedSession(
            id: windowID, sourceTabCount: archive.tabs.count, session: window.session(id: windowID), legacyWindow: nil, stateLinks: [],
            changes: changes)
        let side = MigrationSidePlan(
            incognito: false, abandonedNewTree: false, displacedSessions: [], shadowedLegacySessions: [],
            conversion: MigrationConversion(from: .tabsArchive, sessions: [migrated]))
        return (MigrationPlan(profile: profile, target: .windowData, sides: [side]), rewrite)
    }

    /// Sets aside the window file it replaces (with its backup), then writes the new one.
    private func apply(_ rewrite: FileRewrite, aside: Aside) throws -> MigrationOutcome {
        var plan = RepairPlan(
            sessions: [], rewrites: [], legacy: [], unrepaired: [], before: ValidationReport(findings: [], sessions: 0, tabs: 0))
        plan.fileRewrites = [rewrite]
        let executor = FileRewriteExecutor(aside: aside)
        try executor.preflight(plan)
        var outcome = MigrationOutcome()
        if !rewrite.setAside.isEmpty {
            let entry = try SessionSetAside(writer: aside.writer, profile: aside.profile).pushFiles(
                rewrite.setAside, key: SessionKey(id: rewrite.window, incognito: false),
                reason: "sessionctl migrate --to window-data, before replacing the window file", time: aside.clock(),
                toolVersion: toolVersion)
            outcome.setAside.append(entry)
        }
        if let bytes = rewrite.bytes {
            let path = joinPath(profile, rewrite.file)
            try writer.makeDirectories(parentPath(path))
            try writer.write(bytes, to: path)
            outcome.written.append(rewrite.file)
        }
        return outcome
    }
}
