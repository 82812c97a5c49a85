import FileSystemKit
import SessionForensics
import SessionFormats
import SessionModel

/// Turns validate's findings into a repair plan: every session directory with a finding that
/// needs repair is rebuilt (see `SessionRebuilder`), every such legacy session file rewritten as
/// Chrome loads it (see `LegacySessionRebuilder`); stray and unreadable legacy sessions are set
/// aside. Planning reads and never writes.
public struct RepairPlanner: Sendable {
    public init() {}

    /// Plans the repair of `input` (a profile, read for a rewrite) given what validate reported
    /// about it; with `session`, only that session (and its legacy counterpart) is considered.
    public func plan(_ read: InputRead, report: ValidationReport, session: (id: SessionID, incognito: Bool)? = nil) -> RepairPlan {
        let findings = report.findings.filter { finding in
            finding.needsRepair && session.map { $0.id == finding.session && $0.incognito == finding.incognito } ?? true
        }
        var plan = RepairPlan(sessions: [], rewrites: [], legacy: [], unrepaired: [], before: report)
        var remaining = findings
        for sessionRead in read.sessions {
            guard let snapshot = sessionRead.directory else { continue }
            let source = sessionRead.source
            let own = findings.filter {
                $0.incognito == source.incognito && $0.session == source.id && RepairPlanner.isInside($0.file, source.path)
            }
            guard !own.isEmpty else { continue }
            var rebuilder = SessionRebuilder(snapshot: snapshot, findings: own)
            let repaired = rebuilder.rebuild()
            guard !repaired.matches(snapshot) else { continue }
            let rules = Set(rebuilder.actions.map(\.rule.name))
            let fixed = Set(own.filter { rules.contains($0.rule.name) })
            remaining.removeAll { fixed.contains($0) }
            plan.sessions.append(
                RepairPlan.SessionRepair(
                    session: source.id, incognito: source.incognito, directory: source.path, actions: rebuilder.actions,
                    setsAside: !snapshot.isEmpty, tabs: repaired.tabs.count, files: repaired.files,
                    list: repaired.session, stored: repaired.stored))
        }
        var legacyDirectories = Set<String>()
        for finding in findings where finding.rule == .mixedFormats || finding.rule == .legacyUnparsable {
            let directory = directoryOf(finding.file)
            guard !directory.isEmpty else { continue }
            guard legacyDirectories.insert(directory).inserted else {
                remaining.removeAll { $0 == finding }
                continue
            }
            let reason =
                finding.rule == .mixedFormats
                ? "Chrome ignores it because SessionStorage/ exists; repair does not convert legacy sessions (see migrate)"
                : "no tab can be read from it and Chrome would load the window empty"
            plan.legacy.append(
                RepairPlan.LegacySetAside(
                    session: finding.session, incognito: finding.incognito, directory: directory,
                    action: RepairAction(
                        rule: finding.rule, session: finding.session, incognito: finding.incognito, file: directory,
                        action: "set \(directory)/ aside, unconverted", reason: reason)))
            remaining.removeAll { $0 == finding }
        }
        for sessionRead in read.sessions
        where sessionRead.source.kind == .legacyPlist && RepairPlanner.isLiveLegacyFile(sessionRead.source.path) {
            guard !legacyDirectories.contains(directoryOf(sessionRead.source.path)),
                let rewrite = rewrite(sessionRead, in: read, findings: &remaining)
            else { continue }
            plan.rewrites.append(rewrite)
        }
        plan.unrepaired = remaining
        return plan
    }

    /// The rewrite of a legacy session file with findings that need repair, which are then
    /// removed from `findings` (nil when it has none, or when Chrome would load it as it is).
    private func rewrite(_ legacy: SessionRead, in read: InputRead, findings: inout [Finding]) -> RepairPlan.LegacyRewrite? {
        let source = legacy.source
        let own = findings.filter { $0.incognito == source.incognito && $0.session == source.id && $0.file == source.path }
        guard !own.isEmpty, let window = legacy.legacyWindow else { return nil }
        var rebuilder = LegacySessionRebuilder(
            id: source.id, incognito: source.incognito, file: source.path,
            reserved: tabIDsInUse(besides: source, in: read))
        guard let repaired = rebuilder.rebuild(window) else { return nil }
        let rules = Set(rebuilder.actions.map(\.rule.name))
        let fixed = Set(own.filter { rules.contains($0.rule.name) })
        findings.removeAll { fixed.contains($0) }
        return RepairPlan.LegacyRewrite(
            session: source.id, incognito: source.incognito, directory: directoryOf(source.path),
            file: source.path, actions: rebuilder.actions, tabs: repaired.tabs.count,
            bytes: LegacySessionCodec.encode(repaired))
    }

    /// The tab ids used on the side of `source` (regular or incognito) outside its window: the
    /// tabs of the other legacy windows, and the `Web_Sessions/` files named after tab ids.
    private func tabIDsInUse(besides source: SessionSource, in read: InputRead) -> Set<TabID> {
        let input = read.input
        var ids = Set<TabID>()
        for other in read.sessions
        where other.source.kind == .legacyPlist && other.source.incognito == source.incognito
            && other.source.path != source.path && RepairPlanner.isLiveLegacyFile(other.source.path)
        {
            guard let window = other.legacyWindow else { continue }
            ids.formUnion(window.tabs.compactMap(\.validID))
        }
        // The side's root: what precedes Sessions/<id>/session.plist ("" or "OTR").
        let root = pathComponents(source.path).dropLast(3).joined(separator: "/")
        for name in input.tree.list(joinPath(root, ProfileLayout.legacyWebSessionsDirectory)) {
            if let number = UInt32(name), number > 0, number <= UInt32(Int32.max) { ids.insert(TabID(number)) }
        }
        return ids
    }

    /// True for a live legacy session file, `Sessions/<id>/session.plist` (not a crash backup in `Backups/`).
    static func isLiveLegacyFile(_ path: String) -> Bool {
        let parts = pathComponents(path)
        return parts.count >= 3 && parts[parts.count - 1] == ProfileLayout.legacySessionFile
            && parts[parts.count - 3] == ProfileLayout.legacyDirectory
    }

    /// True when `path` is `directory` or lies inside it.
    static func isInside(_ path: String, _ directory: String) -> Bool {
        directory.isEmpty || path == directory || path.hasPrefix(directory + "/")
    }

    /// The directory part of a tree path ("" when it has none).
    private func directoryOf(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }
}
