import FileSystemKit
import SessionFormats
import SessionModel

/// Checks a located input against everything docs/chrome-ios-format.md says Chrome does, and
/// predicts per finding what Chrome would do on its next launch.
///
/// It reads each file at most once, never writes, and never throws: whatever is damaged, however
/// badly, becomes a finding (with the offset of the first bad byte where there is one).
public struct Validator: Sendable {
    public init() {}

    /// Validates every session of `input`, the legacy sessions shadowed by `SessionStorage/`, and
    /// (for a profile) Chrome's own set-aside sessions, reading it first (`InputRead`, `.tabs`).
    public func validate(_ input: LocatedInput) -> ValidationReport {
        validate(InputRead(input, depth: .tabs))
    }

    /// Validates what `read` holds (read at least as deep as `.tabs`); reads nothing more.
    ///
    /// The checks run on every core in two rounds, each joined in input order: the sessions
    /// (files and lists), then the directories of all their restored tabs.
    public func validate(_ read: InputRead) -> ValidationReport {
        let input = read.input
        let plans = OrderedParallelMap.map(read.sessions, concurrently: true) { session -> SessionPlan in
            switch session.content {
            case .directory(let directory): return planOptimized(directory)
            case .tabData(let file, let history): return SessionPlan(validateTabDataFile(session.source, file: file, history: history))
            case .legacy(let file, let window): return SessionPlan(validateLegacy(session.source, file: file, window: window))
            }
        }
        let checks = plans.flatMap(\.tabChecks)
        let checked = OrderedParallelMap.map(checks, concurrently: true) { check in tabFindings(check) }
        var findings: [Finding] = []
        var tabs = 0
        var next = 0
        for plan in plans {
            var sessionFindings = plan.leading
            for _ in plan.tabChecks {
                sessionFindings += checked[next]
                next += 1
            }
            sessionFindings += plan.trailing
            findings += ValidationReport.ordered(sessionFindings)
            tabs += plan.tabs
        }
        findings += mixedFormats(input)
        findings += backups(input)
        var report = ValidationReport(findings: findings, sessions: input.sessions.count, tabs: tabs)
        report.browser = input.browser
        return report
    }

    /// What validating one session found, and how many tabs it lists.
    struct SessionResult {
        var findings: [Finding] = []
        var tabs = 0
    }

    /// One session read as far as its files and list: the findings so far, the restored tabs
    /// whose directories remain to be checked, and the findings that follow theirs.
    struct SessionPlan: Sendable {
        var leading: [Finding] = []
        var tabChecks: [TabCheck] = []
        var trailing: [Finding] = []
        var tabs = 0

        /// A session validated whole (nothing left to check).
        init(_ result: SessionResult) {
            leading = result.findings
            tabs = result.tabs
        }

        init(leading: [Finding], tabChecks: [TabCheck], trailing: [Finding], tabs: Int) {
            self.leading = leading
            self.tabChecks = tabChecks
            self.trailing = trailing
            self.tabs = tabs
        }
    }

    /// A restored tab whose directory is to be checked: how findings name it, its list entry, its
    /// directory's path, and what the read found there (nil: nothing).
    struct TabCheck: Sendable {
        var reference: TabReference
        var entry: ListEntry
        var directory: String
        var read: SessionDirectoryRead.Entry?
    }

    /// `mixed-formats`: legacy sessions that Chrome ignores because `SessionStorage/` exists beside them.
    func mixedFormats(_ input: LocatedInput) -> [Finding] {
        let loaded = Set(input.sessions.map { "\($0.incognito)/\($0.id)" })
        return input.shadowedLegacySessions.map { source in
            let scope = FindingScope(session: source.id, incognito: source.incognito, file: source.path)
            let storage = joinPath(ProfileLayout.stateRoot(incognito: source.incognito), ProfileLayout.optimizedDirectory)
            let counterpart =
                loaded.contains("\(source.incognito)/\(source.id)")
                ? "its tabs are read from \(storage)/\(source.id) instead"
                : "\(storage)/ has no session \(source.id), so this window comes up empty"
            // session_restoration_service_factory.mm: the format is the one the preference
            // ios.session.storage.format names; only when it is unset do the directories decide.
            return scope.finding(
                .mixedFormats,
                "\(source.path) is ignored when Chrome's preference ios.session.storage.format is unset or names the optimized format, as after a completed migration; \(counterpart). With the preference at legacy (a migration that failed, retried after 3 days) Chrome loads this file and ignores \(storage)/"
            )
        }
    }

    /// `backup-present`: `Backups/<id>/session.backup.plist` left by Chrome's legacy crash helper.
    func backups(_ input: LocatedInput) -> [Finding] {
        input.chromeBackups.map { source in
            FindingScope(session: source.id, incognito: source.incognito, file: source.path).finding(
                .backupPresent,
                "session \(source.id) was set aside by Chrome's legacy crash helper and is not loaded; `sessionctl aside list` shows it")
        }
    }
}
