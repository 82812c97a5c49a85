import FileSystemKit
import Foundation
import SessionFormats
import SessionModel

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
            RepairPlanner.needsRepair(finding) && session.map { $0.id == finding.session } ?? true
        }
        var plan = RepairPlan(sessions: [], rewrites: [], legacy: [], unrepaired: [], before: report)
        var remaining = findings
        for sessionRead in read.sessions {
            guard let window = sessionRead.firefoxWindow else { continue }
            let own = findings.filter { $0.session == sessionRead.source.id }
            guard !own.isEmpty else { continue }
            var planner = FirefoxWindowRepair(window: window, source: sessionRead.source, findings: own)
            guard let rewrite = planner.rewrite() else { continue }
            remaining.removeAll { planner.fixed.contains($0) }
            plan.firefoxWindows.append(rewrite)
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
    private(set) var actions: [RepairAction] = []
    private(set) var fixed: Set<Finding> = []

    init(window: FirefoxWindowRead, source: SessionSource, findings: [Finding]) {
        self.window = window
        self.source = source
        self.findings = findings
    }

    private mutating func act(_ finding: Finding, _ text: String) {
        actions.append(
            RepairAction(
                rule: finding.rule, session: source.id, incognito: false, file: finding.file, action: text, reason: finding.message))
        fixed.insert(finding)
    }

    private func first(_ rules: [Rule]) -> Finding? { findings.first { rules.contains($0.rule) } }

    /// The rewrite of the window; nil when nothing in it can be repaired.
    mutating func rewrite() -> FirefoxWindowRewrite? {
        var data = window.window
        var writes = false
        // The window's own files: every tab of both, the window file's first.
        if let lost = first([.windowFileUnparsable, .windowLost, .windowOnlyInBackup]), let merged = mergedWindow(), !merged.tabs.isEmpty {
            data = merged
            writes = true
            let fromMain = merged.tabs.count - mergedFromBackup
            act(
                lost,
                "write \(window.mainPath) anew with \(merged.tabs.count) tab\(merged.tabs.count == 1 ? "" : "s") (\(fromMain) from the window file, \(mergedFromBackup) from its backup)"
            )
        }
        var bytes: [UInt8]?
        if var current = data {
            writes = fixTabs(&current) || writes
            let names = current.tabs.contains { $0.id.uppercased() == current.activeTabID.uppercased() }
            if let missing = first([.activeTabMissing]), !current.tabs.isEmpty {
                current.activeTabID = FirefoxWindowRepair.selectedTab(current.tabs)
                writes = true
                act(missing, "select the tab Firefox would select (the most recently used regular tab)")
            } else if writes, !names, !current.tabs.isEmpty {
                current.activeTabID = FirefoxWindowRepair.selectedTab(current.tabs)
            }
            if writes {
                bytes = FirefoxWindowRepair.loadableBytes(&current)
                // A window that would still not load is not written: only the session states are set aside.
                if bytes == nil {
                    actions.removeAll()
                    fixed.removeAll()
                }
            }
            data = current
        }
        var removes: [String] = []
        for finding in findings where finding.rule == .tabStateUnparsable && !removes.contains(finding.file) {
            removes.append(finding.file)
            act(finding, "set \(finding.file) aside and remove it (the tab loads its page)")
        }
        guard bytes != nil || !removes.isEmpty else { return nil }
        let replaced =
            bytes == nil ? [] : [window.main == .missing ? nil : window.mainPath, window.backup == .missing ? nil : window.backupPath]
        return FirefoxWindowRewrite(
            window: source.id, file: window.mainPath, setAside: (replaced.compactMap { $0 } + removes).sorted(), removes: removes,
            actions: actions, tabs: data?.tabs.count ?? 0, bytes: bytes)
    }

    /// Tabs taken from the backup by the last `mergedWindow`.
    private var mergedFromBackup: Int {
        let main = Set(FirefoxWindowRead.readableTabs(window.mainWindow).map { $0.id.uppercased() })
        return FirefoxWindowRead.readableTabs(window.backupWindow).filter { !main.contains($0.id.uppercased()) }.count
    }

    /// Fixes the findings about tabs of the window Firefox loads (named by index there, followed
    /// by UUID); true when something changed.
    private mutating func fixTabs(_ data: inout FirefoxWindowData) -> Bool {
        var changed = false
        let loaded = window.window?.tabs ?? []
        func position(_ finding: Finding) -> Int? {
            guard let index = finding.tab?.index, loaded.indices.contains(index) else { return nil }
            return data.tabs.firstIndex { $0.id == loaded[index].id }
        }
        let duplicates = findings.filter { $0.rule == .firefoxTabIDDuplicate }
        if !duplicates.isEmpty {
            FirefoxWindowRepair.renumberDuplicates(&data)
            changed = true
            for finding in duplicates { act(finding, "give the later tab a new UUID (it loads its page, without a session state)") }
        }
        let states = window.statesByTab
        for finding in findings where finding.rule == .tabURLInvalid {
            guard let position = position(finding), let state = states[data.tabs[position].id], let current = state.currentIndex,
                state.entries.indices.contains(current), URL(string: state.entries[current].url) != nil
            else { continue }
            data.tabs[position].siteURL = state.entries[current].url
            changed = true
            act(finding, "take the tab's URL from its session state's current entry")
        }
        // A wrapper in siteUrl; those inside session states stay (their coding is WebKit's).
        let stateFiles = Set(window.tabStates.map(\.path))
        for finding in findings where finding.rule == .internalURL && !stateFiles.contains(finding.file) {
            guard let position = position(finding), let page = InternalURL(data.tabs[position].siteURL)?.wrapped, URL(string: page) != nil
            else { continue }
            data.tabs[position].siteURL = page
            changed = true
            act(finding, "replace the wrapper with the page it wraps")
        }
        return changed
    }

    /// Every tab of the window file as far as it reads, then each tab of the backup it lacks; a
    /// window-file tab whose page was not read takes its backup's.
    private func mergedWindow() -> FirefoxWindowData? {
        let main = FirefoxWindowRead.readableTabs(window.mainWindow)
        let backup = FirefoxWindowRead.readableTabs(window.backupWindow)
        let backupByID = Dictionary(backup.map { ($0.id.uppercased(), $0) }, uniquingKeysWith: { first, _ in first })
        var tabs: [FirefoxTabData] = []
        for tab in main where !(tab.siteURL.isEmpty && tab.title == nil && backupByID[tab.id.uppercased()] == nil) {
            if tab.siteURL.isEmpty, let saved = backupByID[tab.id.uppercased()] { tabs.append(saved) } else { tabs.append(tab) }
        }
        let inMain = Set(main.map { $0.id.uppercased() })
        tabs += backup.filter { !inMain.contains($0.id.uppercased()) }
        guard let base = window.mainWindow?.window ?? window.backupWindow?.window else { return nil }
        var merged = base
        merged.id = source.id
        merged.tabs = tabs
        if !FirefoxUUID.isValid(merged.activeTabID) { merged.activeTabID = window.backupWindow?.window?.activeTabID ?? "" }
        return merged
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
    /// (the most recently used tab when all are private).
    static func selectedTab(_ tabs: [FirefoxTabData]) -> String {
        let regular = tabs.filter { !$0.isPrivate }
        let pool = regular.isEmpty ? tabs : regular
        return pool.max { ($0.lastUsedTime ?? -.infinity) < ($1.lastUsedTime ?? -.infinity) }?.id ?? tabs[0].id
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
