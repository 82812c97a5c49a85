import FileSystemKit
import SessionFormats
import SessionModel
import SessionStore

/// `sessionctl repair`: plans from validate's findings, sets the originals aside, writes the
/// repaired sessions, and validates the result.
///
/// Running it on its own result changes nothing: a session is only touched when its repaired
/// form differs from what is on disk.
public struct Repairer: Sendable {
    /// What a run did and what is left.
    public struct Result: Sendable {
        public var plan: RepairPlan
        /// What was done (nothing for a dry run).
        public var steps: [RepairStep]
        /// Validation of the profile afterwards (nil for a dry run).
        public var after: ValidationReport?
        /// Findings that still need repair: after the run, or those the plan cannot fix for a dry run.
        public var remaining: [Finding]
        public var dryRun: Bool

        /// True when nothing that needs repair is left.
        public var isClean: Bool { remaining.isEmpty }
    }

    /// The profile directory.
    public let profile: String
    /// Sets originals aside and writes; its writer and file system are the only way to the disk.
    public let aside: Aside

    /// The browser family the profile is read as; nil: recognised from its content.
    public let browser: (any BrowserFamily)?

    public init(profile: String, aside: Aside, browser: (any BrowserFamily)? = nil) {
        self.profile = profile
        self.aside = aside
        self.browser = browser
    }

    /// Plans the repair of the profile (or of one of its sessions) without touching anything.
    public func plan(session: (id: SessionID, incognito: Bool)? = nil) throws -> RepairPlan {
        try planWithInput(session: session).plan
    }

    /// The plan, and the profile it was made from, as read.
    /// `located` is the profile as just located, when the caller has it.
    private func planWithInput(
        session: (id: SessionID, incognito: Bool)?, located: LocatedInput? = nil
    ) throws -> (plan: RepairPlan, read: InputRead) {
        let input = try located ?? InputOpener.open(profile, fileSystem: aside.fileSystem, browser: browser)
        guard input.kind == .profile else {
            throw ForensicsError.notAProfile(
                path: profile,
                reason:
                    "no profile of a browser sessionctl reads is in it (\(BrowserFamilies.all.map(\.displayName).joined(separator: ", ")))")
        }
        // One read serves validation and the plan; the state.pb files of the sessions that need
        // repair are read then (a rewrite carries them over), and no others.
        let rulebook = BrowserRulebooks.rulebook(for: input)
        let read = rulebook.family.read(input, depth: .tabs, backups: false)
        let report = rulebook.validate(read)
        let needing = Set(report.findings.filter(\.needsRepair).map { "\($0.incognito)/\($0.session)" })
        let directories = Set(
            read.sessions.filter { needing.contains("\($0.source.incognito)/\($0.source.id)") }.map(\.directoryPath))
        let full = read.readingState(of: directories)
        return (rulebook.planRepair(full, report: report, session: session), full)
    }

    /// The findings needing repair that `plan` would leave: the profile validated as the plan
    /// leaves it (`PlannedTree`), nothing written.
    ///
    /// Only what the plan changes is read: every other session is taken from `read`, the read
    /// the plan was made from.
    public func predictedRemaining(
        _ plan: RepairPlan, in read: InputRead, session: (id: SessionID, incognito: Bool)? = nil
    ) throws -> [Finding] {
        guard !plan.isEmpty else { return plan.unrepaired }
        let ancestry = pathComponents(InputOpener.absolutePath(profile))
        let rulebook = BrowserRulebooks.rulebook(for: read.input)
        if !plan.fileRewrites.isEmpty {
            // Whole-file rewrites touch a few directories: the profile validated whole, as planned.
            let after = try BrowserFamilies.locate(
                tree: PlannedFiles(base: read.input.tree, plan: plan).tree, ancestry: ancestry, browser: rulebook.family)
            return remaining(rulebook.validate(after), session: session)
        }
        let after = try BrowserFamilies.locate(
            tree: PlannedTree(base: read.input.tree, plan: plan).tree, ancestry: ancestry, browser: rulebook.family)
        return remaining(rulebook.validate(InputRead(after, depth: .tabs, reusing: read, except: plan.directories)), session: session)
    }

    /// The findings of `report` that still need repair (of `session` alone, when given).
    private func remaining(_ report: ValidationReport, session: (id: SessionID, incognito: Bool)?) -> [Finding] {
        report.findings.filter { finding in
            finding.needsRepair && session.map { $0.id == finding.session && $0.incognito == finding.incognito } ?? true
        }
    }

    /// Plans, and unless `dryRun` applies the plan and validates the result, all under the
    /// profile's lock (taken before anything is read).
    ///
    /// `located`, the profile as the caller located it (`AsideTarget.locateReading`), spares a
    /// dry run reading it again; a run reads it anew under the lock.
    public func run(session: (id: SessionID, incognito: Bool)? = nil, dryRun: Bool, located: LocatedInput? = nil) throws -> Result {
        if dryRun {
            let reused = located.flatMap { located in browser.map { $0.name == located.browser } ?? true ? located : nil }
            let (plan, read) = try planWithInput(session: session, located: reused)
            // The checks the run makes before its first write, so that the dry run ends as it would.
            _ = try RepairExecutor(aside: aside).preflight(plan, held: read.heldFiles(in: plan.directories))
            try FileRewriteExecutor(aside: aside).preflight(plan)
            return Result(
                plan: plan, steps: [], after: nil, remaining: try predictedRemaining(plan, in: read, session: session), dryRun: true)
        }
        // A path that is no profile directory gets its own error (65, 66), not the lock's.
        if aside.fileSystem.resolvedKind(of: profile) != .directory { _ = try planWithInput(session: session) }
        // Locked before the first read, so that another writer's work in progress is never read.
        return try aside.whileLocked(settling: false) {
            // What an interrupted run left is settled first.
            var settled = try RepairResumption(aside: aside).settleAll()
            // What an interrupted rewrite left in the directories the family writes its session
            // files into is swept too, before the plan reads them (a session file put back).
            let located = try InputOpener.open(profile, fileSystem: aside.fileSystem, browser: browser)
            let swept = try FileRewriteExecutor(aside: aside).sweep(located)
            settled += swept
            // Located again only when the sweep changed what is there.
            let (plan, read) = try planWithInput(session: session, located: swept.isEmpty ? located : nil)
            guard !plan.isEmpty || !settled.isEmpty else {
                return Result(plan: plan, steps: [], after: nil, remaining: plan.unrepaired, dryRun: false)
            }
            let rewritesFilesOnly = plan.sessions.isEmpty && plan.rewrites.isEmpty && plan.legacy.isEmpty
            let steps =
                try settled
                + (rewritesFilesOnly ? [] : RepairExecutor(aside: aside).apply(plan, held: read.heldFiles(in: plan.directories)))
                + (plan.fileRewrites.isEmpty ? [] : FileRewriteExecutor(aside: aside).apply(plan))
            let after = BrowserRulebooks.validate(try InputOpener.open(profile, fileSystem: aside.fileSystem, browser: browser))
            return Result(plan: plan, steps: steps, after: after, remaining: remaining(after, session: session), dryRun: false)
        }
    }
}
