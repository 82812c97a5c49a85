import Foundation
import SessionFormats
import SessionModel

/// The report as one self-contained HTML page: inline CSS and SVG, no script, no reference to
/// anything outside the file. Every value from the profile goes through `HTML.escape`.
///
/// Written by hand rather than with an HTML library: the page is a handful of fixed templates,
/// and one escaping function that every value passes through (and that is fuzzed) is easier to
/// hold to "no text adds markup" than a builder's API, at no cost in dependencies or build time.
public enum ReportPage {
    /// The page for `report`.
    public static func render(_ report: ProfileReport) -> String {
        String(decoding: parts(report).joined(), as: UTF8.self)
    }

    /// The page for `report` as the UTF-8 pieces it is written in, to be written out one after
    /// another (a page of thousands of tabs is never copied whole).
    public static func parts(_ report: ProfileReport) -> [[UInt8]] {
        var page = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>sessionctl report: \(HTML.escape(report.input))</title>
            <style>\(style)</style></head><body>
            <h1>Sessions of <code>\(HTML.escape(report.input))</code></h1>

            """
        page += summary(report)
        if !report.errors.isEmpty { page += unreadable(report.errors) }
        let marks = report.entries.map { (time: $0.time, label: "set aside: \($0.path)") }
        let findings = Dictionary(grouping: report.validation.findings) { WindowKey(session: $0.session, incognito: $0.incognito) }
        // The timeline and every window are written at once on every core (-1: the timeline), and
        // joined in order: for a profile of thousands of tabs they are most of a report's time.
        let parts = OrderedParallelMap.map(Array(-1..<report.sessions.count)) { part -> [[UInt8]] in
            guard part >= 0 else {
                let timeline = TimelineSVG.render(report.sessions, marks: marks)
                guard !timeline.isEmpty else { return [] }
                return [
                    Array(
                        "<section id=\"timeline\"><h2>Timeline</h2><p class=\"note\">One bar per tab, from its creation to its last activity\(report.history ? "; ticks are navigations" : ""); dashed lines are set-asides.</p>\n\(timeline)</section>\n"
                            .utf8)
                ]
            }
            let session = report.sessions[part]
            return window(
                session, findings: findings[WindowKey(session: session.id, incognito: session.incognito)] ?? [], history: report.history)
        }
        var tail = ""
        // Findings of windows with no section of their own (not readable, or not read as a window).
        let shown = Set(report.sessions.map { WindowKey(session: $0.id, incognito: $0.incognito) })
        let others = report.validation.findings.filter { !shown.contains(WindowKey(session: $0.session, incognito: $0.incognito)) }
        if !others.isEmpty {
            tail +=
                "<section id=\"other-findings\"><h2>Findings of windows not shown above</h2>\n" + findingList(others, naming: true)
                + "</section>\n"
        }
        tail += entries(report.entries, backups: report.chromeBackups, backupsName: report.ownBackupsName ?? "")
        tail +=
            "<footer>Made by sessionctl report\(report.redacted ? ", redacted" : "") from <code>\(HTML.escape(report.input))</code>; reading changed nothing on disk.</footer>\n</body></html>\n"
        return [Array(page.utf8)] + parts.joined() + [Array(tail.utf8)]
    }

    /// History items listed per tab; the rest are counted (a page of millions of items would not open).
    static let historyItemsShown = 200

    private struct WindowKey: Hashable {
        var session: String
        var incognito: Bool
    }

    private static func summary(_ report: ProfileReport) -> String {
        let inactive = report.sessions.filter { $0.id.hasSuffix("-Inactive") }
        let regular = report.sessions.filter { !$0.incognito && !$0.id.hasSuffix("-Inactive") }
        let incognito = report.sessions.filter(\.incognito)
        let tabs = report.sessions.reduce(0) { $0 + $1.tabs.count }
        let formats = Set(report.sessions.map(\.format.rawValue)).sorted().joined(separator: ", ")
        let validation = report.validation
        var html = "<section id=\"summary\"><h2>Summary</h2><table class=\"summary\">\n"
        let product = validation.productNamed
        for (label, value) in [
            ("Browser", "\(product.displayName) (\(product.evidence))"),
            ("Windows", "\(report.sessions.count) (\(regular.count) regular, \(incognito.count) incognito, \(inactive.count) inactive)"),
            ("Tabs", "\(tabs)"),
            ("Format", formats.isEmpty ? "-" : formats),
            ("Not readable", "\(report.errors.count)"),
            ("Set-aside entries", "\(report.entries.count)"),
            report.ownBackupsName.map { ($0, "\(report.chromeBackups.count)") },
            ("validate", "\(validation.errors) errors, \(validation.warnings) warnings, \(validation.infos) info")
        ].compactMap({ $0 }) {
            html += "<tr><th>\(HTML.escape(label))</th><td>\(HTML.escape(value))</td></tr>\n"
        }
        html += "</table>\n"
        var next: [String] = []
        let input = ShellWord.quote(report.input)
        // Commands that change a profile take a directory: a bundle is unpacked first.
        // A file is repaired through the profile that holds it.
        let profile = report.bundle ? "DIR" : RepairTarget.directory(for: report.input, isBundle: false).map(ShellWord.quote) ?? input
        if report.bundle && (!report.errors.isEmpty || validation.errors > 0 || !report.entries.isEmpty) {
            next.append("sessionctl decompress \(input) -o DIR")
        }
        if !report.errors.isEmpty || validation.errors > 0 {
            next.append("sessionctl validate \(input)")
            next.append("sessionctl repair --dry-run \(profile)")
        }
        if !report.entries.isEmpty { next.append("sessionctl aside list \(profile)") }
        if !next.isEmpty {
            html += "<p>Next:</p><ul class=\"next\">" + next.map { "<li><code>\(HTML.escape($0))</code></li>" }.joined() + "</ul>\n"
        }
        return html + "</section>\n"
    }

    private static func unreadable(_ errors: [ReadError]) -> String {
        var html = "<section id=\"unreadable\"><h2>Windows that cannot be read</h2><ul>\n"
        for error in errors {
            html +=
                "<li class=\"error\"><b>\(HTML.escape((error.incognito ? "incognito " : "") + error.session))</b>: <code>\(HTML.escape(error.file))</code>: \(HTML.escape(error.message))<br><span class=\"note\">next: \(HTML.escape(error.next))</span></li>\n"
        }
        return html + "</ul></section>\n"
    }

    /// A window's section: its heading and findings, its rows in chunks, and its closed tabs.
    private static func window(_ session: Session, findings: [Finding], history: Bool) -> [[UInt8]] {
        let name = (session.incognito ? "Incognito window " : "Window ") + session.id
        var html = "<section class=\"window\" data-session=\"\(HTML.escape(session.id))\"><h2>\(HTML.escape(name))</h2>\n"
        html +=
            "<p class=\"note\">\(session.tabs.count) tab\(session.tabs.count == 1 ? "" : "s"), \(HTML.escape(session.format.rawValue)) format, pinned \(session.pinnedCount)\(session.groups.isEmpty ? "" : ", \(session.groups.count) group\(session.groups.count == 1 ? "" : "s")")</p>\n"
        let windowFindings = findings.filter { $0.tab?.index == nil }
        let findingsByTab = Dictionary(grouping: findings.filter { $0.tab?.index != nil }) { $0.tab?.index ?? 0 }
        if !windowFindings.isEmpty { html += findingList(windowFindings) }
        html +=
            "<table class=\"tabs\"><colgroup><col style=\"width:3.5em\"><col style=\"width:4em\"><col><col style=\"width:7em\"><col style=\"width:6em\"><col style=\"width:10em\"><col style=\"width:10em\"><col style=\"width:3.5em\"><col style=\"width:14em\"></colgroup><thead><tr><th>#</th><th>id</th><th>title and URL</th><th>group</th><th>opener</th><th>created</th><th>last active</th><th>items</th><th>findings</th></tr></thead><tbody>\n"
        // Every tab gets a row; entries that name no tab get one up to `namelessRowsShown`, the
        // rest are counted (a list of millions of empty entries would make a page that never opens).
        var shown: [Int] = []
        var nameless = 0
        for (index, tab) in session.tabs.enumerated() {
            if !tab.namesATab {
                nameless += 1
                if nameless > namelessRowsShown { continue }
            }
            shown.append(index)
        }
        // Rows are written in chunks on every core and joined in order: the page of a window of
        // thousands of tabs is most of a report's time.
        let chunks = stride(from: 0, to: shown.count, by: rowsPerChunk).map { shown[$0..<min($0 + rowsPerChunk, shown.count)] }
        let rows = OrderedParallelMap.map(chunks) { rows in tabRows(session, rows, findingsByTab: findingsByTab, history: history) }
        var end = "</tbody></table>"
        if nameless > namelessRowsShown {
            end +=
                "<p class=\"note\">and \(nameless - namelessRowsShown) more entries that name no tab (no valid id, URL or title), not listed one by one; sessionctl inspect lists every entry</p>"
        }
        return [Array(html.utf8)] + rows + [Array((end + closed(session) + "</section>\n").utf8)]
    }

    /// The tabs and windows closed in a window that the browser keeps to reopen, as lists (up to
    /// `namelessRowsShown` tabs each; the rest counted).
    private static func closed(_ session: Session) -> String {
        guard !session.closedTabs.isEmpty || !session.closedWindows.isEmpty else { return "" }
        func list(_ tabs: [Tab]) -> String {
            var html = "<ol class=\"closed\">"
            for tab in tabs.prefix(namelessRowsShown) {
                let title = tab.title.isEmpty ? "(untitled)" : tab.title
                html += "<li>\(HTML.escape(title)) <span class=\"url\">\(HTML.escape(tab.url))</span></li>"
            }
            if tabs.count > namelessRowsShown { html += "<li>and \(tabs.count - namelessRowsShown) more</li>" }
            return html + "</ol>\n"
        }
        var html = ""
        if !session.closedTabs.isEmpty {
            html += "<h3>Closed tabs (\(session.closedTabs.count))</h3>\n" + list(session.closedTabs)
        }
        for window in session.closedWindows.prefix(namelessRowsShown) {
            html +=
                "<h3>Closed window \(HTML.escape(window.id)) (\(window.tabs.count) tab\(window.tabs.count == 1 ? "" : "s"))</h3>\n"
                + list(window.tabs)
        }
        if session.closedWindows.count > namelessRowsShown {
            html += "<p class=\"note\">and \(session.closedWindows.count - namelessRowsShown) more closed windows</p>"
        }
        return html
    }

    /// Rows shown per window for list entries that name no tab (`Tab.namesATab`); the rest are
    /// counted. As many as validate lists findings of one rule, so that each listed one has its row.
    static let namelessRowsShown = FindingCap.limit

    /// Tabs rendered per task when a window's rows are written in parallel.
    static let rowsPerChunk = 250

    /// The table rows of the tabs of `session` at the indexes `rows`.
    private static func tabRows(_ session: Session, _ rows: ArraySlice<Int>, findingsByTab: [Int: [Finding]], history: Bool) -> [UInt8] {
        // About what a row takes (a history line about 160 bytes), so that the bytes grow rarely.
        var html = HTMLBytes(
            capacity: rows.reduce(0) { sum, index in
                sum + 600 + (history ? min(session.tabs[index].history?.items.count ?? 0, historyItemsShown) * 160 : 0)
            })
        for index in rows {
            let tab = session.tabs[index]
            let active = index == Int(session.activeIndex)
            html.markup(active ? "<tr class=\"tab active\" data-tab=\"" : "<tr class=\"tab\" data-tab=\"")
            html.number(tab.id)
            html.markup("\"><td>")
            html.number(index)
            if active { html.markup(" <b title=\"active\">*</b>") }
            if tab.pinned { html.markup(" <span title=\"pinned\">P</span>") }
            if tab.salvaged { html.markup(" <span class=\"salvaged\" title=\"salvaged: read past where the browser stops\">S</span>") }
            html.markup("</td><td>")
            html.number(tab.id)
            html.markup("</td><td><div class=\"title\">")
            html.text(tab.title)
            html.markup("</div><div class=\"url\">")
            html.text(tab.url)
            html.markup("</div>")
            if history, let items = tab.history?.items, !items.isEmpty {
                let committed = Int(tab.history?.lastCommittedIndex ?? -1)
                // One text block per history (a line per item, the committed one marked "*"): a
                // page of thousands of tabs stays a few elements per tab.
                html.markup("<details><summary>history, ")
                html.number(items.count)
                html.markup(items.count == 1 ? " item</summary><pre class=\"history\">" : " items</summary><pre class=\"history\">")
                for (number, item) in items.enumerated().prefix(ReportPage.historyItemsShown) {
                    let url = item.displayURL
                    html.markup(number == committed ? "*" : " ")
                    html.number(number)
                    html.markup(" ")
                    html.text(item.title.isEmpty ? url : item.title)
                    html.markup("\n    ")
                    html.text(url)
                    html.markup("  ")
                    html.text(item.timestamp.iso8601 ?? "-")
                    html.markup("\n")
                }
                if items.count > ReportPage.historyItemsShown {
                    html.markup("  and ")
                    html.number(items.count - ReportPage.historyItemsShown)
                    html.markup(" more (sessionctl inspect --history lists every one)\n")
                }
                html.markup("</pre></details>")
            }
            html.markup("</td><td>")
            if let group = session.groups.first(where: { index >= Int($0.start) && index < Int($0.start) + Int($0.count) }) {
                html.markup("<span class=\"group g-")
                html.text(group.color.name)
                html.markup("\">")
                html.text(group.title.isEmpty ? "(untitled)" : group.title)
                html.markup("</span>")
            }
            html.markup("</td><td>")
            if let opener = tab.opener {
                html.markup("[")
                html.number(opener.index)
                html.markup("] at item ")
                html.number(opener.navigationIndex)
            }
            html.markup("</td><td>")
            html.text(tab.creationTime.iso8601 ?? "-")
            html.markup("</td><td>")
            html.text(tab.lastActiveTime.iso8601 ?? "-")
            html.markup("</td><td>")
            html.number(tab.navigationItemCount)
            html.markup("</td><td>")
            if let tabFindings = findingsByTab[index], !tabFindings.isEmpty { html.markup(findingList(tabFindings)) }
            html.markup("</td></tr>\n")
        }
        return html.bytes
    }

    private static func findingList(_ findings: [Finding], naming: Bool = false) -> String {
        "<ul class=\"findings\">"
            + findings.map { finding in
                let window = naming ? "\(HTML.escape((finding.incognito ? "incognito " : "") + finding.session)): " : ""
                return
                    "<li class=\"finding \(HTML.escape(finding.severity.rawValue))\">\(window)<b>\(HTML.escape(finding.rule.name))</b> (\(HTML.escape(finding.severity.rawValue)); Chrome: \(HTML.escape(finding.outcome.rawValue))): \(HTML.escape(finding.message))</li>"
            }.joined() + "</ul>"
    }

    private static func entries(_ entries: [ProfileReport.Entry], backups: [ProfileReport.ChromeBackup], backupsName: String) -> String {
        guard !entries.isEmpty || !backups.isEmpty else { return "" }
        var html = "<section id=\"backups\"><h2>Set aside</h2>\n"
        if !entries.isEmpty {
            html +=
                "<table class=\"entries\"><thead><tr><th>entry</th><th>session</th><th>time</th><th>reason</th><th>files</th><th>manifest</th></tr></thead><tbody>\n"
            for entry in entries {
                html +=
                    "<tr><td><code>\(HTML.escape(entry.path))</code></td><td>\(HTML.escape((entry.incognito ? "incognito " : "") + entry.session))</td><td>\(HTML.escape(entry.time.iso8601 ?? "-"))</td><td>\(HTML.escape(entry.reason))</td><td>\(entry.files)</td><td class=\"\(entry.problem == nil ? "ok" : "error")\">\(HTML.escape(entry.problem ?? "verifies"))</td></tr>\n"
            }
            html += "</tbody></table>\n"
        }
        if !backups.isEmpty {
            html += "<h3>\(HTML.escape(backupsName))</h3><ul>\n"
            for backup in backups {
                html +=
                    "<li><code>\(HTML.escape(backup.path))</code>: \(HTML.escape(backup.tabs.map { "\($0) tab\($0 == 1 ? "" : "s")" } ?? "not readable: \(backup.problem ?? "")"))</li>\n"
            }
            html += "</ul>\n"
        }
        return html + "</section>\n"
    }

    private static let style = """
        body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222;background:#fff}
        h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em;border-bottom:1px solid #ccc}
        table{border-collapse:collapse;width:100%}table.tabs{table-layout:fixed}
        section.window{content-visibility:auto;contain-intrinsic-size:auto 2000px}th,td{border:1px solid #ddd;padding:3px 6px;text-align:left;vertical-align:top}
        table.summary{width:auto}.url{color:#555;font-family:monospace;font-size:12px;word-break:break-all}
        tr.active{background:#eef6ff}.note{color:#666;font-size:12px}.error,.finding.error{color:#a00}
        .finding.warning{color:#a60}.finding.info{color:#555}.ok{color:#070}ul.findings{margin:0;padding-left:1.1em}
        .group{padding:0 4px;border-radius:3px;color:#fff;background:#777}.g-blue{background:#1a73e8}.g-red{background:#d93025}
        .g-yellow{background:#f9ab00;color:#222}.g-green{background:#188038}.g-pink{background:#d01884}.g-purple{background:#a142f4}
        .g-cyan{background:#007b83}.g-orange{background:#fa903e;color:#222}pre.history{font-size:12px;margin:2px 0;white-space:pre-wrap;word-break:break-all}
        svg.timeline{max-width:100%;height:auto;border:1px solid #ddd}svg .tab{fill:#8ab4f8}svg .nav{stroke:#174ea6}
        svg .aside{stroke:#d93025;stroke-dasharray:4 3}svg text{font-size:10px;fill:#444}footer{margin-top:2em;color:#666;font-size:12px}
        """
}
