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
                        refusal.reason + (readable > 0 ? "; \(count(readable, "tab")) can be read from its pages (inspect)" : "")))
                continue
            case .success(let read): database = read
            }
            if !database.opensInSafari {
                findings.append(
                    scope.finding(
                        .browserStateIntegrity,
                        "integrity_check answers \"\(database.integrity)\"; \(count(database.tabs.count, "tab")) can be read from it"))
                continue
            }
            windows += database.windows.count { $0.isOpen }
            tabCount += file.restoredTabs.count
            for (index, tab) in database.tabs.enumerated() {
                let reference = TabReference(index: index, id: nil)
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
                default: break
                }
            }
        }
        var report = ValidationReport(findings: findings, sessions: windows, tabs: tabCount)
        report.browser = read.input.browser
        report.sources = read.input.sessions
        return report
    }

    private func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
}
