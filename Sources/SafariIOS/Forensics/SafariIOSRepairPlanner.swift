import FileSystemKit
import SessionForensics
import SessionFormats
import SessionModel

/// Turns validate's findings about a `BrowserState.db` into a repair plan: when Safari would not
/// keep the database (SQLite refuses it, or its integrity check fails), a new database is written
/// through SQLite holding every row that can be read, through SQLite where it reads a table whole
/// and from the pages by hand where it does not (every column as stored, the schema as the file
/// gives it, else Safari's schema 8); the database and its `-wal` and `-shm` are set aside first,
/// and the `-wal` and `-shm` then removed (a WAL left beside a new database would be replayed
/// into it). A tab whose state is over 2 MiB (Safari drops it) gets its history back within the
/// limit: the entries nearest the current one, as many as fit. Planning reads and never writes the
/// profile.
public struct SafariIOSRepairPlanner: Sendable {
    public init() {}

    /// Plans the repair of `read` (a profile) given what validate reported about it.
    public func plan(_ read: InputRead, report: ValidationReport) -> RepairPlan {
        var plan = RepairPlan.unrepaired(report)
        var needing = plan.unrepaired.filter { $0.rule.repair.repairsAlone }
        guard !needing.isEmpty, read.input.kind == .profile, let session = read.sessions.first, let file = session.browserState else {
            return plan
        }
        var content: BrowserStateContent
        switch file.database {
        case .success(let database):
            guard let files = file.files,
                let read = try? BrowserStateDatabase.content(
                    files, name: lastPathComponent(session.source.path), userVersion: database.userVersion)
            else { return plan }
            content = read
            // A table SQLite could not read whole comes from the pages; of a database Safari keeps
            // the pages were not read for a rewrite: nothing is planned rather than a table emptied.
            if database.opensInSafari, !content.unreadTables.isEmpty { return plan }
            for table in content.unreadTables { content.rows[table] = file.salvaged.content.rows[table] ?? [] }
            // Of a database Safari closes, the rows only the pages hold join SQLite's (a row
            // SQLite gives without its key is a damaged page's, not Safari's).
            if !database.opensInSafari { Self.merge(&content, file.salvaged.content) }
        case .failure:
            content = file.salvaged.content
        }
        var trimmed: [String: Int] = [:]
        for (index, row) in (content.rows["tab_sessions"] ?? []).enumerated() {
            guard let uuid = row["tab_uuid"]?.text, case .dropped(let state?, _)? = file.states[uuid] else { continue }
            let kept = Self.fitting(state)
            // One entry alone over the limit (a title of megabytes): nothing fits; it stays as it is.
            guard kept.encode().count <= SafariIOSLayout.largestRestoredState else { continue }
            let (data, size) = SafariTabState.encode(kept)
            content.rows["tab_sessions"]?[index]["session_data"] = .blob(data)
            content.rows["tab_sessions"]?[index]["uncompressed_session_data_size"] = .integer(Int64(size))
            trimmed[uuid] = kept.entries.count
        }
        let listed = (try? file.database.get())?.tabs ?? []
        /// How many entries the rewrite keeps of the tab a finding is about, when it trims that tab's state.
        func kept(_ finding: Finding) -> Int? {
            guard let index = finding.tab?.index, listed.indices.contains(index) else { return nil }
            return trimmed[listed[index].uuid]
        }
        needing.removeAll { $0.rule == .tabStateDropped && kept($0) == nil }
        Self.recordTrueSizes(&content, states: file.states)
        Self.moveTabsOfMissingWindows(&content)
        Self.selectViewedTabs(&content)
        guard !needing.isEmpty else { return plan }
        let tabs = content.rows["tabs"]?.count ?? 0
        guard tabs > 0 else { return plan }
        let path = session.source.path
        let bytes: [UInt8]
        do throws(BrowserStateWriter.Failure) {
            bytes = try BrowserStateWriter.write(content)
        } catch {
            plan.fileRewrites = [
                FileRewrite(
                    window: SafariIOSFamily.setAsideSession, file: path, setAside: [], removes: [], actions: [], tabs: tabs, bytes: nil,
                    kind: "database", refusal: error.reason)
            ]
            return plan
        }
        let companions = SafariIOSLayout.companions(of: path).filter { read.input.tree.kind(of: $0) == .file }
        let from = file.database.isSuccess ? "read through SQLite" : "read from its pages"
        let write = "write \(lastPathComponent(path)) anew through SQLite with \(tabs) tab\(tabs == 1 ? "" : "s") (\(from))"
        let actions = needing.map { finding in
            let what =
                finding.rule == .tabStateDropped
                ? "\(write), this tab's history stored within 2 MiB (\(kept(finding).map { "\($0) entr\($0 == 1 ? "y" : "ies") nearest the current one kept" } ?? "kept"))"
                : write
            return RepairAction(
                rule: finding.rule, session: finding.session, incognito: false, file: finding.file, action: what, reason: finding.message)
        }
        plan.fileRewrites = [
            FileRewrite(
                window: SafariIOSFamily.setAsideSession, file: path, setAside: ([path] + companions).sorted(), removes: companions.sorted(),
                actions: actions, tabs: tabs, bytes: bytes, kind: "database", restoredBefore: restoredBefore(file))
        ]
        plan.unrepaired.removeAll { finding in needing.contains(finding) }
        return plan
    }
}

extension SafariIOSRepairPlanner {
    /// Safari's three tables of `content` without rows that lack their key, with the rows of
    /// `salvaged` whose key none of them has.
    static func merge(_ content: inout BrowserStateContent, _ salvaged: BrowserStateContent) {
        for (table, key) in [("browser_windows", "uuid"), ("tabs", "uuid"), ("tab_sessions", "tab_uuid")] {
            var rows = (content.rows[table] ?? []).filter { !($0[key]?.text ?? "").isEmpty }
            let keys = Set(rows.compactMap { $0[key]?.text })
            // Added without their rowids: SQLite gives them new ones, no row of its own is replaced.
            rows += (salvaged.rows[table] ?? []).filter { row in !keys.contains(row[key]?.text ?? "") && !(row[key]?.text ?? "").isEmpty }
                .map { row in
                    var added = row
                    added[BrowserStateContent.rowidColumn] = nil
                    added["id"] = nil
                    return added
                }
            content.rows[table] = rows
        }
    }

    /// Each compressed state's row records the size it decodes to.
    static func recordTrueSizes(_ content: inout BrowserStateContent, states: [String: SafariTabState.Decoded]) {
        for (index, row) in (content.rows["tab_sessions"] ?? []).enumerated() {
            guard let uuid = row["tab_uuid"]?.text, case .sizeMismatch(_, _, let actual)? = states[uuid] else { continue }
            content.rows["tab_sessions"]?[index]["uncompressed_session_data_size"] = .integer(Int64(actual))
        }
    }

    /// Tabs naming a window the database does not hold go to the first open window, after its tabs.
    static func moveTabsOfMissingWindows(_ content: inout BrowserStateContent) {
        let windows = content.rows["browser_windows"] ?? []
        let known = Set(windows.compactMap { $0["uuid"]?.text })
        guard let first = windows.first(where: { ($0["type"]?.integer ?? 0) == 0 }), let uuid = first["uuid"]?.text else { return }
        let tabs = content.rows["tabs"] ?? []
        var next = (tabs.filter { $0["browser_window_uuid"]?.text == uuid }.compactMap { $0["order_index"]?.integer }.max() ?? -1) &+ 1
        for (index, row) in tabs.enumerated() where !known.contains(row["browser_window_uuid"]?.text ?? "") {
            content.rows["tabs"]?[index]["browser_window_uuid"] = .text(uuid)
            content.rows["tabs"]?[index]["browser_window_id"] = first["id"] ?? .null
            content.rows["tabs"]?[index]["order_index"] = .integer(next)
            next &+= 1
        }
    }

    /// A window whose active index names none of its regular tabs selects its most recently viewed one.
    static func selectViewedTabs(_ content: inout BrowserStateContent) {
        let tabs = content.rows["tabs"] ?? []
        for (index, window) in (content.rows["browser_windows"] ?? []).enumerated() {
            guard let uuid = window["uuid"]?.text, let active = window["active_document_index"]?.integer else { continue }
            let regular = tabs.filter { $0["browser_window_uuid"]?.text == uuid && ($0["private_browsing"]?.integer ?? 0) == 0 }
                .sorted { ($0["order_index"]?.integer ?? 0) < ($1["order_index"]?.integer ?? 0) }
            guard !regular.isEmpty, active < 0 || active >= regular.count else { continue }
            let viewed =
                regular.indices.max { (regular[$0]["last_viewed_time"]?.real ?? 0) < (regular[$1]["last_viewed_time"]?.real ?? 0) } ?? 0
            content.rows["browser_windows"]?[index]["active_document_index"] = .integer(Int64(viewed))
        }
    }

    /// The tabs Safari restores from the database today: none from one it does not keep.
    func restoredBefore(_ file: BrowserStateFileRead) -> Int {
        guard case .success(let database) = file.database, database.opensInSafari else { return 0 }
        return file.restoredTabs.count
    }

    /// `state` within Safari's 2 MiB: the entries nearest the current one, as many as fit (found
    /// by halving, a few encodings whatever the number of entries), each kept whole with its frame
    /// state (WebKit before mid-2024 refuses an entry without one).
    static func fitting(_ state: WebKitSessionState) -> WebKitSessionState {
        guard state.encode().count > SafariIOSLayout.largestRestoredState, !state.entries.isEmpty else { return state }
        let current = min(max(state.currentIndex ?? state.entries.count - 1, 0), state.entries.count - 1)
        // Positions by distance from the current entry: it first, then one after, one before, ...
        var nearest = [current]
        var step = 1
        while nearest.count < state.entries.count {
            if current + step < state.entries.count { nearest.append(current + step) }
            if current - step >= 0 { nearest.append(current - step) }
            step += 1
        }
        func keeping(_ count: Int) -> WebKitSessionState {
            let kept = nearest.prefix(count).sorted()
            return WebKitSessionState(entries: kept.map { state.entries[$0] }, currentIndex: kept.firstIndex(of: current))
        }
        var (fits, tooMany) = (1, state.entries.count)
        while tooMany - fits > 1 {
            let middle = fits + (tooMany - fits) / 2
            if keeping(middle).encode().count <= SafariIOSLayout.largestRestoredState { fits = middle } else { tooMany = middle }
        }
        return keeping(fits)
    }
}

extension Result {
    /// Whether it holds a value.
    fileprivate var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }
}
