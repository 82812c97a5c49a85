import Foundation
import SessionForensics
import SessionFormats

/// The text view of `validate`: findings grouped by session and tab, worst first, then a summary.
enum ValidateText {
    /// Prints the report; `path` is what the user gave, for the next step it suggests.
    static func print(_ report: ValidationReport, path: String? = nil, isBundle: Bool = false) {
        let browser = BrowserFamilies.named(report.browser)?.shortName ?? report.browser
        for (number, session) in report.groupedWorstFirst().enumerated() {
            if number > 0 { Output.line() }
            Output.line("\(session.incognito ? "incognito " : "")session \(session.session):")
            for group in session.groups {
                Output.line("  \(heading(group.tab))")
                for finding in group.findings {
                    let place = finding.offset.map { "\(finding.file) at byte \($0)" } ?? finding.file
                    Output.line(
                        "    \(pad(finding.severity.rawValue, 7)) \(finding.rule.name) [\(browser): \(finding.outcome.rawValue)] \(place): \(finding.message)"
                    )
                }
            }
        }
        if !report.findings.isEmpty { Output.line() }
        if let product = report.product { Output.line("browser: \(product.displayName) (\(product.evidence))") }
        let counts =
            "\(report.errors) error\(report.errors == 1 ? "" : "s"), \(report.warnings) warning\(report.warnings == 1 ? "" : "s"), \(report.infos) info"
        Output.line(
            "\(report.sessions) session\(report.sessions == 1 ? "" : "s"), \(report.tabs) tab\(report.tabs == 1 ? "" : "s"): \(counts)")
        if let path, report.findings.contains(where: \.needsRepair) {
            next(path, browser: BrowserFamilies.named(report.browser)?.shortName.capitalized ?? "the browser", isBundle: isBundle)
        }
    }

    /// The `next:` line: the repair command that shows how what the browser would lose is saved.
    private static func next(_ path: String, browser: String, isBundle: Bool) {
        if isBundle {
            Output.line(
                "next: sessionctl decompress \(ShellWord.quote(path)) -o DIR, then sessionctl repair --dry-run DIR shows how repair would save what \(browser) would lose"
            )
        } else if let target = RepairTarget.directory(for: path, isBundle: false) {
            // Repair takes a directory: for a file, the profile that holds it.
            Output.line(
                "next: sessionctl repair --dry-run \(ShellWord.quote(target)) shows how repair would save what \(browser) would lose")
        } else {
            Output.line("next: repair works on a profile directory; copy this file into one to repair it")
        }
    }

    private static func heading(_ tab: TabReference?) -> String {
        switch (tab?.index, tab?.id) {
        case (nil, nil): return "session:"
        case (let index?, let id?): return "tab \(index) (#\(id)):"
        case (let index?, nil): return "tab \(index):"
        case (nil, let id?): return "tab #\(id) (not listed):"
        }
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
