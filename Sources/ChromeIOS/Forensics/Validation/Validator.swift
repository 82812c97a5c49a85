import FileSystemKit
import SessionForensics
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
    /// (for a profile) Chrome's own set-aside sessions.
    ///
    /// It reads as `InputRead` does (each file once, in the same two rounds on every core) but
    /// checks each tab directory as soon as it is read and keeps only its name, kind and entries:
    /// validating alone never holds every history at once.
    public func validate(_ input: LocatedInput) -> ValidationReport {
        let tree = input.tree
        let concurrently = tree.fileSystem.readsConcurrently
        var sessions = OrderedParallelMap.map(input.sessions, concurrently: concurrently) { source in
            InputRead.readSession(source, tree: tree, depth: .tabs)
        }
        // A session whose list is lost is judged by all its entries: its tab directories are read first.
        for index in sessions.indices {
            guard case .directory(var directory) = sessions[index].content, directory.walked, directory.session == nil else { continue }
            // Their kinds and names alone: no tab of a lost list is checked.
            directory.entries = directory.entries.map { entry in
                guard entry.kind == nil else { return entry }
                let path = joinPath(directory.path, entry.name)
                let kind = tree.kind(of: path)
                return SessionDirectoryRead.Entry(name: entry.name, kind: kind, children: kind == .directory ? tree.list(path) : [])
            }
            sessions[index].content = .directory(directory)
        }
        let plans = OrderedParallelMap.map(sessions, concurrently: true) { plan($0) }
        // The second round: each tab-like directory read, checked when a restored tab owns it, and let go.
        var pending: [(session: Int, entry: Int, check: Int?)] = []
        for (index, session) in sessions.enumerated() {
            // A metadata file given alone under another name is checked alone.
            guard let directory = session.directory, directory.walked else { continue }
            var owners: [String: Int] = [:]
            for (position, check) in plans[index].tabChecks.enumerated() { owners[lastPathComponent(check.directory)] = position }
            for (position, entry) in directory.entries.enumerated() where entry.kind == nil {
                pending.append((index, position, owners[entry.name]))
            }
        }
        let slots = pending
        let paths = slots.map { slot in
            sessions[slot.session].directory.map { joinPath($0.path, $0.entries[slot.entry].name) } ?? ""
        }
        let results = OrderedParallelMap.map(Array(zip(slots.indices, paths)), concurrently: concurrently) { slot, path in
            let read = InputRead.readTabDirectory(path, tree: tree, depth: .tabs)
            let findings = slots[slot].check.map { position -> [Finding] in
                var check = plans[slots[slot].session].tabChecks[position]
                check.read = read
                return tabFindings(check)
            }
            return (entry: SessionDirectoryRead.Entry(name: read.name, kind: read.kind, children: read.children), findings: findings)
        }
        InputRead.place(results.map(\.entry), at: pending.map { ($0.session, $0.entry) }, in: &sessions)
        var checked: [[[Finding]?]] = plans.map { Array(repeating: nil, count: $0.tabChecks.count) }
        for (slot, result) in zip(pending, results) {
            if let position = slot.check { checked[slot.session][position] = result.findings }
        }
        // A restored tab whose directory was never found is checked with nothing there.
        let findings = plans.indices.map { index in
            plans[index].tabChecks.indices.map { position in checked[index][position] ?? tabFindings(plans[index].tabChecks[position]) }
        }
        return report(plans: plans, checked: findings, sessions: sessions, input: input)
    }

    /// Validates what `read` holds (read at least as deep as `.tabs`); reads nothing more.
    ///
    /// The checks run on every core in two rounds, each joined in input order: the sessions
    /// (files and lists), then the directories of all their restored tabs.
    public func validate(_ read: InputRead) -> ValidationReport {
        let plans = OrderedParallelMap.map(read.sessions, concurrently: true) { plan($0) }
        let checks = plans.indices.flatMap { index in
            plans[index].tabChecks.map { check in
                var check = check
                check.read = read.sessions[index].directory?.entry(named: lastPathComponent(check.directory))
                return check
            }
        }
        let flat = OrderedParallelMap.map(checks, concurrently: true) { check in tabFindings(check) }
        var checked: [[[Finding]]] = []
        var next = 0
        for plan in plans {
            checked.append(Array(flat[next..<next + plan.tabChecks.count]))
            next += plan.tabChecks.count
        }
        return report(plans: plans, checked: checked, sessions: read.sessions, input: read.input)
    }

    /// The plan of one session read.
    private func plan(_ session: SessionRead) -> SessionPlan {
        switch session.content {
        case .directory(let directory): return planOptimized(directory)
        case .tabData(let file, let history): return SessionPlan(validateTabDataFile(session.source, file: file, history: history))
        case .legacy(let file, let window): return SessionPlan(validateLegacy(session.source, file: file, window: window))
        // Another family's session is judged by its own rulebook, never by Chrome's.
        case .file: return SessionPlan(SessionResult())
        }
    }

    /// The report: each session's findings (its own, its restored tabs', then its other entries'), in input order.
    private func report(plans: [SessionPlan], checked: [[[Finding]]], sessions: [SessionRead], input: LocatedInput) -> ValidationReport {
        var findings: [Finding] = []
        var tabs = 0
        for (index, plan) in plans.enumerated() {
            var sessionFindings = plan.leading
            for tabFindings in checked[index] { sessionFindings += tabFindings }
            if let entries = plan.entries, let directory = sessions[index].directory {
                sessionFindings += EntryRules.sessionEntries(
                    directory.entries, directory: directory.path, kept: entries.kept, listed: entries.listed, scope: entries.scope)
            }
            findings += ValidationReport.ordered(sessionFindings)
            tabs += plan.tabs
        }
        findings += mixedFormats(input)
        findings += backups(input)
        var report = ValidationReport(findings: findings, sessions: input.sessions.count, tabs: tabs)
        report.browser = input.browser
        report.sources = input.sessions
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
        /// What the other entries of a session directory are checked against, once all are read.
        struct EntryCheck: Sendable {
            var kept: Set<String>
            var listed: [String: TabID]
            var scope: FindingScope
        }

        var leading: [Finding] = []
        var tabChecks: [TabCheck] = []
        /// The session directory's entries are checked after its tabs (nil: nothing to check).
        var entries: EntryCheck?
        var tabs = 0

        /// A session validated whole (nothing left to check).
        init(_ result: SessionResult) {
            leading = result.findings
            tabs = result.tabs
        }

        init(leading: [Finding], tabChecks: [TabCheck], entries: EntryCheck, tabs: Int) {
            self.leading = leading
            self.tabChecks = tabChecks
            self.entries = entries
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
