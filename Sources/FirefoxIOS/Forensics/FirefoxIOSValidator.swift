import FileSystemKit
import Foundation
import SessionForensics
import SessionFormats
import SessionModel
import SessionStore

/// Checks Firefox for iOS windows against what Firefox does when it loads them
/// (docs/firefox-ios-format.md, loading): which file of each window it reads, what that loses,
/// and what it makes of each tab.
public struct FirefoxIOSValidator: Sendable {
    public init() {}

    /// Validates what `read` holds (the tabs' session states too when it was read as deep as
    /// `.histories`); reads nothing more.
    public func validate(_ read: InputRead) -> ValidationReport {
        let results = OrderedParallelMap.map(read.sessions, concurrently: true) { session -> (findings: [Finding], tabs: Int) in
            guard let window = session.firefoxWindow else { return ([], 0) }
            return validate(window, source: session.source)
        }
        var findings: [Finding] = []
        let listed = read.sessions.filter { $0.firefoxWindow.map { $0.main != .missing } ?? false }
        if listed.count > 1, let first = listed.first {
            let directory = pathComponents(first.source.path).dropLast().joined(separator: "/")
            findings.append(
                FindingScope(session: first.source.id, incognito: false, file: directory).finding(
                    .windowsSeveral, "\(listed.count) windows: on iPhone Firefox keeps the first it lists and deletes the other files"))
        }
        for result in results { findings += ValidationReport.ordered(result.findings) }
        findings += FirefoxLegacyRules.findings(read)
        var report = ValidationReport(findings: findings, sessions: read.sessions.count, tabs: results.reduce(0) { $0 + $1.tabs })
        report.browser = read.input.browser
        report.sources = read.input.sessions
        return report
    }

    /// The findings of one window, and how many tabs Firefox loads of it.
    func validate(_ window: FirefoxWindowRead, source: SessionSource) -> (findings: [Finding], tabs: Int) {
        let scope = FindingScope(session: source.id, incognito: false, file: window.mainPath)
        var findings = fileFindings(window, scope: scope)
        guard let data = window.window else { return (findings, 0) }
        // A window left only in the backup is never loaded: its tabs are not counted as Firefox's.
        let loads = window.main != .missing
        let loadedScope = window.loaded == .backup ? scope.file(window.backupPath ?? window.mainPath) : scope
        findings += tabFindings(data, window: window, scope: loadedScope)
        return (findings, loads ? data.tabs.count : 0)
    }

    /// What Firefox makes of the window's two files.
    private func fileFindings(_ window: FirefoxWindowRead, scope: FindingScope) -> [Finding] {
        var findings: [Finding] = []
        let backupScope = scope.file(window.backupPath ?? window.mainPath)
        let backupTabs = window.backupWindow?.window?.tabs ?? []
        switch (window.main, window.loaded) {
        case (.missing, _):
            let count = backupTabs.count
            findings.append(
                backupScope.finding(
                    .windowOnlyInBackup, "window-data/ has no file for this window; its backup holds \(count) tab\(count == 1 ? "" : "s")"))
            return findings
        case (_, .main):
            break
        case (_, .backup):
            let kept = Set(backupTabs.map { $0.id.uppercased() })
            let salvaged = FirefoxWindowRead.readableTabs(window.mainWindow)
            let lost = salvaged.filter { !kept.contains($0.id.uppercased()) }.count
            findings.append(
                scope.finding(
                    .windowFileUnparsable, offset: window.mainWindow?.damage?.offset,
                    "\(window.whyNotLoaded(.main)); Firefox loads the backup (\(backupTabs.count) tab\(backupTabs.count == 1 ? "" : "s")), losing \(lost) tab\(lost == 1 ? "" : "s") that can be read from the window file"
                ))
            return findings
        case (_, nil):
            let readable = window.mergedTabs
            let backup = window.backupPath == nil ? "no backup within the input" : "backup: " + window.whyNotLoaded(.backup)
            findings.append(
                scope.finding(
                    .windowLost, offset: window.mainWindow?.damage?.offset,
                    "\(window.whyNotLoaded(.main)) (\(backup)); Firefox opens one new tab, and \(readable.count) tab\(readable.count == 1 ? "" : "s") can be read from the files"
                ))
            return findings
        }
        guard window.backupPath != nil else { return findings }
        switch window.backup {
        case .missing:
            findings.append(backupScope.finding(.backupMissing, "no backup of this window"))
        case .unreadable, .bytes:
            guard window.backupWindow?.loadsInFirefox == true else {
                findings.append(
                    backupScope.finding(.backupUnparsable, offset: window.backupWindow?.damage?.offset, window.whyNotLoaded(.backup)))
                break
            }
            let kept = Set(backupTabs.map { $0.id.uppercased() })
            let behind = (window.mainWindow?.window?.tabs ?? []).filter { !kept.contains($0.id.uppercased()) }.count
            if behind > 0 {
                findings.append(
                    backupScope.finding(
                        .backupBehind,
                        "the backup lacks \(behind) tab\(behind == 1 ? "" : "s") of the window file: a fallback to it would lose \(behind == 1 ? "it" : "them")"
                    ))
            }
        }
        return findings
    }

    /// What Firefox makes of each tab of the window it loads (also what repair checks a window it
    /// merges against).
    func tabFindings(_ data: FirefoxWindowData, window: FirefoxWindowRead, scope: FindingScope) -> [Finding] {
        var findings: [Finding] = []
        let active = data.activeTabID.uppercased()
        if !data.tabs.isEmpty, !data.tabs.contains(where: { $0.id.uppercased() == active }) {
            findings.append(scope.finding(.activeTabMissing, "activeTabId \(data.activeTabID) names none of the \(data.tabs.count) tabs"))
        }
        var seen: [String: Int] = [:]
        var privateTabs = 0
        let states = Dictionary(window.tabStates.map { ($0.tabID, $0) }, uniquingKeysWith: { first, _ in first })
        for (index, tab) in data.tabs.enumerated() {
            let reference = TabReference(index: index, id: Int32(clamping: index + 1))
            if tab.isPrivate { privateTabs += 1 }
            if let first = seen[tab.id.uppercased()] {
                findings.append(
                    scope.finding(.firefoxTabIDDuplicate, tab: reference, "tab \(index) has the UUID \(tab.id) of tab \(first)"))
            } else {
                seen[tab.id.uppercased()] = index
            }
            if !tab.siteURL.isEmpty, URL(string: tab.siteURL) == nil {
                findings.append(scope.finding(.tabURLInvalid, tab: reference, "siteUrl \(Self.quoted(tab.siteURL)) is not a URL"))
            }
            if let wrapper = InternalURL(tab.siteURL) {
                findings.append(scope.finding(.internalURL, tab: reference, Self.describe(wrapper, at: "siteUrl")))
            }
            guard let state = states[tab.id] else { continue }
            switch state.state {
            case .failure(let error)?:
                var offset: Int?
                if case .damaged(_, let at, _) = error { offset = at }
                findings.append(scope.file(state.path).finding(.tabStateUnparsable, tab: reference, offset: offset, error.reason))
            case .success(let history)?:
                for (position, entry) in history.entries.enumerated() {
                    guard let wrapper = InternalURL(entry.url) else { continue }
                    findings.append(
                        scope.file(state.path).finding(.internalURL, tab: reference, Self.describe(wrapper, at: "entry \(position)")))
                }
            case nil:
                continue
            }
        }
        if privateTabs > 0 {
            findings.append(scope.finding(.privateTabsSaved, "\(privateTabs) private tab\(privateTabs == 1 ? "" : "s")"))
        }
        return findings
    }

    private static func describe(_ wrapper: InternalURL, at place: String) -> String {
        let page = wrapper.wrapped.map { " wrapping \(quoted($0))" } ?? ""
        return "\(place) is Firefox's internal \(wrapper.kind) page\(page), which does not load after the launch that wrote it"
    }

    private static func quoted(_ text: String) -> String {
        "\"" + String(text.prefix(200)) + (text.count > 200 ? "…" : "") + "\""
    }
}

extension FirefoxWindowRead {
    /// Every tab either file holds as far as it reads, as repair writes them: the window file's
    /// (a tab whose page was not read takes the backup's), then each of the backup's it lacks.
    var mergedTabs: [FirefoxTabData] {
        let main = FirefoxWindowRead.readableTabs(mainWindow)
        let backup = FirefoxWindowRead.readableTabs(backupWindow)
        let backupByID = Dictionary(backup.map { ($0.id.uppercased(), $0) }, uniquingKeysWith: { first, _ in first })
        let fromMain = main.map { tab in tab.siteURL.isEmpty ? backupByID[tab.id.uppercased()] ?? tab : tab }
        let inMain = Set(main.map { $0.id.uppercased() })
        return fromMain + backup.filter { !inMain.contains($0.id.uppercased()) }
    }

    /// Every tab a window file holds as far as it reads: the tabs read whole, then the one the
    /// damage cut short when its page or title was read (an id alone saves nothing).
    static func readableTabs(_ file: FirefoxWindowFile?) -> [FirefoxTabData] {
        guard let file else { return [] }
        let cut = file.cutTab.flatMap { tab in !tab.siteURL.isEmpty || !(tab.title ?? "").isEmpty ? tab : nil }
        return (file.window?.tabs ?? []) + (cut.map { [$0] } ?? [])
    }
}
