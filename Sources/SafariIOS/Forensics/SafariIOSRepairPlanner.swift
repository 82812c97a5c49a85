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
/// limit: the entries' frame states (scroll positions, form contents) left out, as WebKit itself
/// leaves them out past 2 MiB, then the entries farthest from the current one. Planning reads and
/// never writes the profile.
public struct SafariIOSRepairPlanner: Sendable {
    public init() {}

    /// Plans the repair of `read` (a profile) given what validate reported about it.
    public func plan(_ read: InputRead, report: ValidationReport) -> RepairPlan {
        var plan = RepairPlan.unrepaired(report)
        var needing = plan.unrepaired.filter { [Rule.browserStateRefused, .browserStateIntegrity, .tabStateDropped].contains($0.rule) }
        guard !needing.isEmpty, read.input.kind == .profile, let session = read.sessions.first, let file = session.browserState else {
            return plan
        }
        var content: BrowserStateContent
        switch file.database {
        case .success(let database):
            content = database.content
            // A table SQLite could not read whole comes from the pages.
            for table in content.unreadTables { content.rows[table] = file.salvaged.content.rows[table] ?? [] }
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
        needing.removeAll { $0.rule == .tabStateDropped && trimmed[Self.tabUUID($0.message)] == nil }
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
                ? "\(write), this tab's history stored within 2 MiB (\(trimmed[Self.tabUUID(finding.message)].map { "\($0) entr\($0 == 1 ? "y" : "ies") kept" } ?? "kept"), frame states left out)"
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
    /// The tabs Safari restores from the database today: none from one it does not keep.
    func restoredBefore(_ file: BrowserStateFileRead) -> Int {
        guard case .success(let database) = file.database, database.opensInSafari else { return 0 }
        return file.restoredTabs.count
    }

    /// `state` within Safari's 2 MiB: without frame states, then without the entries farthest
    /// from the current one, one at a time, until it fits (the current entry always kept).
    static func fitting(_ state: WebKitSessionState) -> WebKitSessionState {
        var kept = state
        for index in kept.entries.indices { kept.entries[index].frameState = nil }
        while kept.encode().count > SafariIOSLayout.largestRestoredState, kept.entries.count > 1 {
            let current = kept.currentIndex ?? kept.entries.count - 1
            if current >= kept.entries.count - 1 - current {
                kept.entries.removeFirst()
                kept.currentIndex = kept.currentIndex.map { max($0 - 1, 0) }
            } else {
                kept.entries.removeLast()
            }
        }
        return kept
    }

    /// The UUID a tab finding's message starts with (`tab <UUID>: ...`).
    static func tabUUID(_ message: String) -> String {
        String(message.dropFirst(4).prefix(36))
    }
}

extension Result {
    /// Whether it holds a value.
    fileprivate var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }
}
