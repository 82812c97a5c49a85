import Archive
import FileSystemKit
import SessionForensics
import SessionFormats
import SessionModel
import SessionStore

/// Turns validate's findings about Chromium desktop's session files into a repair plan: when
/// Chrome would lose tabs that can be read, a new version-3 `Sessions/Session_<time>` is written
/// with the full state of every window and tab salvage reads (past damage and bad commands,
/// window-less tabs in a window of their own) and the marker, named one microsecond after the
/// newest session file so that Chrome takes it; every Session_ file (and legacy session file) is
/// set aside first into `Backups/Sessions/<stamp>/`, outside `Sessions/`, whose other files
/// Chrome deletes at launch. Planning reads and never writes.
public struct ChromiumDesktopRepairPlanner: Sendable {
    public init() {}

    /// Plans the repair of `read` (a profile) given what validate reported about it.
    public func plan(_ read: InputRead, report: ValidationReport) -> RepairPlan {
        var plan = RepairPlan.unrepaired(report)
        let needing = plan.unrepaired
        guard !needing.isEmpty, read.input.kind == .profile else { return plan }
        let load = SNSSLoad(read)
        let sessionFiles = load.candidates.filter { $0.type == .session }
        // The file Chrome restores when salvage reads it, else the newest file salvage reads.
        let chosen = load.chosen[.session].map { load.candidates[$0] }
        let source = ([chosen].compactMap { $0 } + sessionFiles).first { candidate in
            read.sessions[candidate.session].snss?.decoded?.salvage.map { !$0.windows.isEmpty } ?? false
        }
        guard let source, let decoded = read.sessions[source.session].snss?.decoded, let salvage = decoded.salvage else { return plan }
        let tabs = salvage.windows.reduce(0) { $0 + $1.tabs.count }
        let newest = sessionFiles.compactMap(\.time).max()
        // One microsecond after the newest file, so that Chrome takes it; with none, the last
        // time the session holds (the name is the same for the dry run and the run).
        let latest = salvage.windows.flatMap(\.tabs).flatMap { [$0.lastActive] + $0.navigations.map(\.timestamp) }.max() ?? 0
        // Chrome takes the newest file by the int64 in its name: past the largest one no name is
        // newer (one more would wrap to the oldest), and repair says so instead of writing it.
        var refusal: String?
        let time: Int64
        if let newest {
            time = newest < .max ? newest + 1 : newest
            if newest == .max {
                refusal =
                    "the newest session file, \(ChromiumDesktopLayout.name(.session, time: newest)), has the largest time a name can hold, so no file name Chrome would take after it exists; rename it to Session_<microseconds since 1601> and run again"
            }
        } else {
            time = latest > 0 ? (latest < .max ? latest + 1 : latest) : Aside.systemTime().microseconds
        }
        let file = joinPath(ChromiumDesktopLayout.sessionsDirectory, ChromiumDesktopLayout.name(.session, time: time))
        let bytes = SNSSWriter.fullState(of: salvage, source: decoded.file.bytes, dialect: decoded.dialect)
        // A file cut shorter since it was read gave zeros for what went: nothing is written from it.
        guard !decoded.file.bytes.wasCut else { return plan }
        let from = read.sessions[source.session].source.id
        let actions = needing.map { finding in
            RepairAction(
                rule: finding.rule, session: finding.session, incognito: false, file: finding.file,
                action:
                    "write \(file) with \(tabs) tab\(tabs == 1 ? "" : "s") in \(salvage.windows.count) window\(salvage.windows.count == 1 ? "" : "s") (salvaged from \(from))",
                reason: finding.message)
        }
        let setAside = sessionFiles.map { read.sessions[$0.session].source.id }.sorted()
        plan.fileRewrites = [
            FileRewrite(
                window: ChromiumDesktopLayout.sessionsDirectory, file: file, setAside: setAside, removes: [], actions: actions, tabs: tabs,
                bytes: bytes, kind: "session", restoredBefore: load.restoredSession(read)?.file.chrome.map(Self.tabCount) ?? 0,
                refusal: refusal)
        ]
        plan.unrepaired = []
        return plan
    }

    /// The tabs of a replay's windows.
    private static func tabCount(_ replay: SNSSReplay) -> Int { replay.windows.reduce(0) { $0 + $1.tabs.count } }
}
