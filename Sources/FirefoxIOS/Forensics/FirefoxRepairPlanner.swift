import FileSystemKit
import Foundation
import SessionForensics
import SessionFormats
import SessionModel
import SessionStore

/// Turns validate's findings about Firefox for iOS windows into a repair plan: each window with a
/// finding that needs repair is written anew as Firefox loads it, with every tab that can be read
/// from its window file and its backup (the window file's first), and the tabs' session states
/// WebKit cannot read are set aside. Planning reads and never writes.
public struct FirefoxRepairPlanner: Sendable {
    public init() {}

    /// Plans the repair of `read` (a profile) given what validate reported about it; with
    /// `session`, of that window alone.
    public func plan(_ read: InputRead, report: ValidationReport, session: (id: SessionID, incognito: Bool)? = nil) -> RepairPlan {
        let findings = report.findings.filter { finding in
            finding.needsRepair && session.map { $0.id == finding.session } ?? true
        }
        var plan = RepairPlan(sessions: [], rewrites: [], legacy: [], unrepaired: [], before: report)
        var remaining = findings
        var removed = Set<String>()
        for sessionRead in read.sessions {
            guard let window = sessionRead.firefoxWindow else { continue }
            let own = findings.filter { $0.session == sessionRead.source.id }
            guard !own.isEmpty else { continue }
            var planner = FirefoxWindowRepair(window: window, source: sessionRead.source, findings: own, removedElsewhere: removed)
            guard let rewrite = planner.rewrite() else { continue }
            remaining.removeAll { planner.fixed.contains($0) }
            removed.formUnion(rewrite.removes)
            plan.fileRewrites.append(rewrite)
        }
        // Tabs only the legacy archives hold: a window file written from them.
        if let (rewrite, fixed) = FirefoxLegacyRepair(read: read, findings: findings).rewrite(),
            !plan.fileRewrites.contains(where: { $0.file == rewrite.file })
        {
            remaining.removeAll { fixed.contains($0) }
            plan.fileRewrites.append(rewrite)
        }
        plan.unrepaired = remaining
        return plan
    }
}

/// The repair of one window: what it writes, and the findings it fixes.
struct FirefoxWindowRepair {
    let window: FirefoxWindowRead
    let source: SessionSource
    let findings: [Finding]
    /// Session-state files another window's repair already removes (a tab UUID in two windows).
    let removedElsewhere: Set<String>
    private(set) var actions: [RepairAction] = []
    private(set) var fixed: Set<Finding> = []

    init(window: FirefoxWindowRead, source: SessionSource, findings: [Finding], removedElsewhere: Set<String> = []) {
        self.window = window
        self.source = source
        self.findings = findings
        self.removedElsewhere = removedElsewhere
    }

    private mutating func act(_ finding: Finding, _ text: String) {
        actions.append(
            RepairAction(
                rule: finding.rule, session: source.id, incognito: false, file: finding.file, action: text, reason: finding.message))
        fixed.insert(finding)
    }

    private func first(_ rule: Rule) -> Finding? { findings.first { $0.rule == rule } }

    /// The rewrite of the window; nil when nothing in it can be repaired.
    mutating func rewrite() -> FileRewrite? {
        var data = window.window
        var writes = false
        var merged = false
        // The window's own files: every tab of both, the window file's first.
        if let lost = findings.first(where: { [.windowFileUnparsable, .windowLost, .windowOnlyInBackup].contains($0.rule) }),
            let base = window.mainWindow?.window ?? window.backupWindow?.window, !window.mergedTabs.isEmpty
        {
            var combined = base
            combined.id = source.id
            combined.tabs = window.mergedTabs
            if !FirefoxUUID.isValid(combined.activeTabID) { combined.activeTabID = window.backupWindow?.window?.activeTabID ?? "" }
            data = combined
            writes = true
            merged = true
            let fromBackup = combined.tabs.count - FirefoxWindowRead.readableTabs(window.mainWindow).count
            act(
                lost,
                "write \(window.mainPath) anew with \(combined.tabs.count) tab\(combined.tabs.count == 1 ? "" : "s") (\(combined.tabs.count - fromBackup) from the window file, \(fromBackup) from its backup)"
            )
        }
        var bytes: [UInt8]?
        var removes: [String] = []
        if var current = data {
            // The tabs of a merged window are checked as Firefox will load them, and fixed with the rest.
            let tabFindings =
                merged
                ? FirefoxIOSValidator().tabFindings(
                    current, window: window, scope: FindingScope(session: source.id, incognito: false, file: window.mainPath))
                : findings
            writes = fixTabs(&current, tabFindings, cite: !merged) || writes
            writes = selectActiveTab(&current, writes: writes, merged: merged) || writes
            removes = stateFiles(tabFindings, cite: !merged)
            if writes {
                bytes = FirefoxWindowRepair.loadableBytes(&current)
                // A window that would still not load is not written: only the session states are set aside.
                if bytes == nil {
                    actions.removeAll { $0.rule != .tabStateUnparsable }
                    fixed = fixed.filter { $0.rule == .tabStateUnparsable }
                }
            }
            data = current
        }
        guard bytes != nil || !removes.isEmpty else { return nil }
        let replaced =
            bytes == nil ? [] : [window.main == .missing ? nil : window.mainPath, window.backup == .missing ? nil : window.backupPath]
        return FileRewrite(
            window: source.id, file: window.mainPath, setAside: (replaced.compactMap { $0 } + removes).sorted(), removes: removes,
            actions: actions, tabs: data?.tabs.count ?? 0, bytes: bytes)
    }

    /// Fixes what is wrong with the tabs of `data`, as `tabFindings` (indexes into `data.tabs`)
    /// says; cites each finding fixed when `cite` (the findings are validate's). True when
    /// something changed.
    private mutating func fixTabs(_ data: inout FirefoxWindowData, _ tabFindings: [Finding], cite: Bool) -> Bool {
        var changed = false
        func position(_ finding: Finding) -> Int? { finding.tab?.index.flatMap { data.tabs.indices.contains($0) ? $0 : nil } }
        let states = window.statesByTab
        for finding in tabFindings where finding.rule == .tabURLInvalid {
            guard let position = position(finding), let state = states[data.tabs[position].id], let current = state.currentIndex,
                state.entries.indices.contains(current), URL(string: state.entries[current].url) != nil
            else { continue }
            data.tabs[position].siteURL = state.entries[current].url
            changed = true
            if cite { act(finding, "take the tab's URL from its session state's current entry") }
        }
        // A wrapper in siteUrl; those inside session states stay (their coding is WebKit's).
        let stateFiles = Set(window.tabStates.map(\.path))
        for finding in tabFindings where finding.rule == .internalURL && !stateFiles.contains(finding.file) {
            guard let position = position(finding), let page = InternalURL(data.tabs[position].siteURL)?.wrapped, URL(string: page) != nil
            else { continue }
            data.tabs[position].siteURL = page
            changed = true
            if cite { act(finding, "replace the wrapper with the page it wraps") }
        }
        // Last, so that the fixes above found each tab where the findings put it.
        let duplicates = tabFindings.filter { $0.rule == .firefoxTabIDDuplicate }
        if !duplicates.isEmpty || data.tabs.contains(where: { !FirefoxUUID.isValid($0.id) }) {
            FirefoxWindowRepair.renumberDuplicates(&data)
            changed = true
            if cite {
                for finding in duplicates { act(finding, "give the later tab a new UUID (it loads its page, without a session state)") }
            }
        }
        return changed
    }

    /// Makes `activeTabId` name a tab when it names none: the most recently used regular tab, as
    /// Firefox selects (with only private tabs Firefox opens a new tab, and it is left).
    private mutating func selectActiveTab(_ data: inout FirefoxWindowData, writes: Bool, merged: Bool) -> Bool {
        let names = data.tabs.contains { $0.id.uppercased() == data.activeTabID.uppercased() }
        let missing = first(.activeTabMissing)
        if names {
            // The window file's own selection, kept in a merged window, names a tab again.
            if let missing, merged { act(missing, "keep the window file's activeTabId, which names a tab of the window written") }
            return false
        }
        guard missing != nil || writes, let selected = FirefoxWindowRepair.selectedTab(data.tabs) else { return false }
        data.activeTabID = selected
        if let missing { act(missing, "select the tab Firefox would select (the most recently used regular tab)") }
        return true
    }

    /// The session-state files WebKit cannot read, set aside and removed (each once, and not one
    /// another window's repair removes); cites each finding when `cite`.
    private mutating func stateFiles(_ tabFindings: [Finding], cite: Bool) -> [String] {
        var removes: [String] = []
        for finding in tabFindings where finding.rule == .tabStateUnparsable {
            if !removes.contains(finding.file) && !removedElsewhere.contains(finding.file) { removes.append(finding.file) }
            if cite { act(finding, "set \(finding.file) aside and remove it (the tab loads its page)") }
        }
        // A merged window's findings are not validate's: its own tab-state findings are cited as they are.
        if !cite {
            for finding in findings where finding.rule == .tabStateUnparsable {
                if !removes.contains(finding.file) && !removedElsewhere.contains(finding.file) { removes.append(finding.file) }
                act(finding, "set \(finding.file) aside and remove it (the tab loads its page)")
            }
        }
        return removes
    }

    /// A later tab whose UUID an earlier one has gets a new UUID.
    static func renumberDuplicates(_ data: inout FirefoxWindowData) {
        var seen = Set<String>()
        for index in data.tabs.indices
        where !seen.insert(data.tabs[index].id.uppercased()).inserted || !FirefoxUUID.isValid(data.tabs[index].id) {
            data.tabs[index].id = UUID().uuidString
            seen.insert(data.tabs[index].id)
        }
    }

    /// The tab Firefox selects when `activeTabId` names none: the most recently used regular tab
    /// (none when all are private: Firefox then opens a new tab).
    static func selectedTab(_ tabs: [FirefoxTabData]) -> String? {
        tabs.filter { !$0.isPrivate }.max { ($0.lastUsedTime ?? -.infinity) < ($1.lastUsedTime ?? -.infinity) }?.id
    }

    /// The bytes of `data` as Firefox decodes them: each required value a tab lacks is supplied
    /// (its times from each other, else 2001-01-01), and each value Firefox's decoder would still
    /// refuse is dropped; nil when the window still would not load.
    static func loadableBytes(_ data: inout FirefoxWindowData) -> [UInt8]? {
        for index in data.tabs.indices {
            let used = data.tabs[index].lastUsedTime ?? data.tabs[index].createdAtTime ?? 0
            data.tabs[index].lastUsedTime = used
            data.tabs[index].createdAtTime = data.tabs[index].createdAtTime ?? used
        }
        for _ in 0..<3 {
            let bytes = FirefoxWindowEncoder.encode(data)
            let decoded = FirefoxWindowDecoder.decode(bytes)
            if decoded.loadsInFirefox { return bytes }
            for refusal in decoded.refusals {
                guard refusal.path.count >= 3, case .index(let index) = refusal.path[1], data.tabs.indices.contains(index),
                    case .key(let key) = refusal.path[2]
                else { return nil }
                switch key {
                case "tabGroupData": data.tabs[index].groupData = nil
                case "temporaryDocumentSession": data.tabs[index].temporaryDocumentSession = nil
                case "title": data.tabs[index].title = nil
                case "faviconURL": data.tabs[index].faviconURL = nil
                default: return nil
                }
            }
        }
        return nil
    }
}

extension FirefoxRepairPlanner {
    /// The bytes repair would write for `window` (nil when Firefox would still refuse them): for the fuzz target.
    @_spi(Fuzzing) public static func loadableBytes(_ window: FirefoxWindowData) -> [UInt8]? {
        var window = window
        return FirefoxWindowRepair.loadableBytes(&window)
    }
}
