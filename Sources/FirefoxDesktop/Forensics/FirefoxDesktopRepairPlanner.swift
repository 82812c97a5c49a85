import Archive
import FileSystemKit
import SessionForensics
import SessionFormats
import SessionModel
import SessionStore

/// Turns validate's findings about Firefox desktop's session files into a repair plan: when a file
/// Firefox passes over holds tabs it would lose, or no file loads, `sessionstore.jsonlz4` (the file
/// Firefox tries first) is written with every tab that can be read from every session file,
/// merged in Firefox's load order without duplicates; every session file is set aside first, and
/// those that do not load are then removed. Planning reads and never writes.
public struct FirefoxDesktopRepairPlanner: Sendable {
    public init() {}

    /// Plans the repair of `read` (a profile) given what validate reported about it.
    public func plan(_ read: InputRead, report: ValidationReport) -> RepairPlan {
        var plan = RepairPlan.unrepaired(report)
        let needing = plan.unrepaired
        guard !needing.isEmpty, read.input.kind == .profile else { return plan }
        let load = SessionstoreLoad(read)
        let ordered = load.candidates.filter(\.tried).map { read.sessions[$0.session] }
        let documents = ordered.compactMap { $0.sessionstore?.decoded?.document }
        guard let merge = SessionstoreMerge(documents), merge.document.tabCount > 0 else { return plan }
        let profile = read.input.sessions.first?.firefoxProfile ?? ""
        let clean = joinPath(profile, SessionstoreRole.clean.path())
        guard let bytes = try? merge.mozLz4(file: clean) else { return plan }
        let all = load.candidates.map { read.sessions[$0.session].source.path }
        let damaged = load.candidates.filter { $0.tried && $0.skipped != nil }.map { read.sessions[$0.session].source.path }
        var actions: [RepairAction] = []
        let sources = zip(ordered.filter { $0.sessionstore?.decoded?.document != nil }, merge.contributed).filter { $0.1 > 0 }
        let from = sources.map { "\($0.1) from \($0.0.source.path)" }.joined(separator: ", ")
        for finding in needing {
            actions.append(
                RepairAction(
                    rule: finding.rule, session: finding.session, incognito: false, file: finding.file,
                    action:
                        "write \(SessionstoreRole.clean.path()) with \(merge.document.tabCount) tab\(merge.document.tabCount == 1 ? "" : "s") (\(from))",
                    reason: finding.message))
        }
        plan.fileRewrites = [
            FileRewrite(
                window: "sessionstore", file: clean, setAside: all.sorted(), removes: damaged.filter { $0 != clean }.sorted(),
                actions: actions,
                tabs: merge.document.tabCount, bytes: bytes, kind: "session",
                restoredBefore: load.loaded.flatMap { read.sessions[load.candidates[$0].session].sessionstore?.decoded?.document?.tabCount }
                    ?? 0)
        ]
        plan.unrepaired = []
        return plan
    }
}
