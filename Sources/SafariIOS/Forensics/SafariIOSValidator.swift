import FileSystemKit
import SessionForensics
import SessionFormats
import SessionModel

/// Checks Safari for iOS's `BrowserState.db` against what Safari does when it opens it
/// (docs/safari-ios-format.md, loading): SQLite must read it and its integrity check must answer
/// `ok`, or Safari starts without its tabs; a tab whose state does not decode, or is over 2 MiB,
/// comes back without its history.
public struct SafariIOSValidator: Sendable {
    public init() {}

    /// Validates what `read` holds; reads nothing more.
    public func validate(_ read: InputRead) -> ValidationReport {
        var findings: [Finding] = []
        var windows = 0
        var tabCount = 0
        for session in read.sessions {
            guard let file = session.browserState else { continue }
            let scope = FindingScope(session: session.source.id, incognito: false, file: session.source.path)
            let database: BrowserStateDatabase
            switch file.database {
            case .failure(let refusal):
                let readable = file.salvaged.tabs.count
                findings.append(
                    scope.finding(
                        .browserStateRefused,
                        refusal.reason + (readable > 0 ? "; \(counted(readable, "tab")) can be read from its pages (inspect)" : "")))
                continue
            case .success(let read): database = read
            }
            if !database.opensInSafari {
                findings.append(
                    scope.finding(
                        .browserStateIntegrity,
                        "integrity_check answers \"\(database.integrity)\"; \(counted(file.everyTab.count, "tab")) can be read from it"))
                continue
            }
            windows += database.windows.count { $0.isOpen }
            tabCount += file.restoredTabs.count
            if database.userVersion != 8 {
                findings.append(scope.finding(.browserStateVersion, "user_version is \(database.userVersion), not 8"))
            }
            let known = Set(database.windows.map(\.uuid))
            for window in database.windows where window.isOpen {
                let regular = database.tabs.count { $0.windowUUID == window.uuid && !$0.isPrivate }
                if let index = window.activeDocumentIndex, regular > 0, index < 0 || index >= regular {
                    findings.append(
                        scope.finding(
                            .activeIndexOutOfRange,
                            "window \(window.uuid): active_document_index \(index) names none of its \(counted(regular, "regular tab"))"))
                }
            }
            for (index, tab) in database.tabs.enumerated() {
                let reference = TabReference(index: index, id: nil)
                if !known.contains(tab.windowUUID ?? "") {
                    findings.append(
                        scope.finding(
                            .tabWindowMissing, tab: reference,
                            "tab \(tab.uuid) names window \(tab.windowUUID ?? "(none)"), which browser_windows does not hold: Safari never loads it"
                        ))
                }
                switch file.states[tab.uuid] {
                case .damaged(let error)?:
                    var at = ""
                    if case .damaged(_, let offset, _) = error { at = " at byte \(offset)" }
                    findings.append(
                        scope.finding(
                            .tabStateDamaged, tab: reference, "tab \(tab.uuid): its session_data is damaged\(at): \(error.reason)"))
                case .dropped(_, let size)?:
                    findings.append(
                        scope.finding(
                            .tabStateDropped, tab: reference,
                            "tab \(tab.uuid): its session state is \(size) bytes, over Safari's 2 MiB; it restores without history"))
                case .sizeMismatch(_, let recorded, let actual)?:
                    findings.append(
                        scope.finding(
                            .tabStateSizeMismatch, tab: reference,
                            "tab \(tab.uuid): its session state decodes to \(actual) bytes, its row records \(recorded); Safari cuts it and restores the tab without history"
                        ))
                default: break
                }
            }
        }
        var report = ValidationReport(findings: findings, sessions: windows, tabs: tabCount)
        report.browser = read.input.browser
        report.sources = read.input.sessions
        return report
    }

}
