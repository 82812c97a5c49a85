import FileSystemKit
import SessionModel

/// The report's timeline: an inline SVG with one lane per window and one bar per tab, from its
/// creation to its last activity on a time axis shared by every window; with histories, each
/// navigation's time is a tick on its tab's bar; each set-aside entry is a dashed line at its time.
enum TimelineSVG {
    static let width = 960
    static let laneLabel = 180
    static let rowHeight = 14
    /// Windows of up to this many tabs get one element per bar (with the tab's title on hover).
    static let barsWithTitles = 500

    /// The SVG for `sessions` and the set-aside times `marks` (empty when nothing has a time).
    static func render(_ sessions: [Session], marks: [(time: Timestamp, label: String)]) -> String {
        // The earliest and latest time shown, found without collecting the times.
        var first = Int64.max
        var last = Int64.min
        func include(_ time: Timestamp) {
            guard !time.isNull else { return }
            first = min(first, time.microseconds)
            last = max(last, time.microseconds)
        }
        for mark in marks { include(mark.time) }
        for session in sessions {
            for tab in session.tabs {
                include(tab.creationTime)
                include(tab.lastActiveTime)
                for item in (tab.history?.items ?? []).prefix(ReportPage.historyItemsShown) { include(item.timestamp) }
            }
        }
        guard first <= last else { return "" }
        // In Double: times from disk may be any Int64, and their difference would overflow.
        let span = max(Double(last) - Double(first), 1)
        let plot = Double(width - laneLabel - 10)
        func x(_ time: Timestamp) -> Int { laneLabel + Int(((Double(time.microseconds) - Double(first)) / span * plot).rounded()) }

        var rows = 0
        var body = ""
        for session in sessions {
            let top = 20 + rows * rowHeight
            let name = (session.incognito ? "incognito " : "") + session.id
            let short =
                (session.incognito ? "incognito " : "") + (session.id.hasSuffix("-Inactive") ? "inactive " : "")
                + laneName(session.id)
            body += "<text class=\"lane\" x=\"4\" y=\"\(top + 10)\">\(HTML.escape(short))<title>\(HTML.escape(name))</title></text>\n"
            // A window's bars are one path and its ticks another: a page of thousands of tabs stays
            // a few elements per window; few tabs get one bar each, with the tab's title on hover.
            var bars = ""
            var ticks = ""
            for (index, tab) in session.tabs.enumerated() {
                let y = top + index * rowHeight + 3
                let start = tab.creationTime.isNull ? tab.lastActiveTime : tab.creationTime
                let end = tab.lastActiveTime.isNull || tab.lastActiveTime < start ? start : tab.lastActiveTime
                if !start.isNull {
                    let from = x(start)
                    let width = max(2, x(end) - from)
                    if session.tabs.count <= TimelineSVG.barsWithTitles {
                        body +=
                            "<rect class=\"tab\" x=\"\(from)\" y=\"\(y)\" width=\"\(width)\" height=\"8\"><title>\(HTML.escape("#\(tab.id) \(tab.title.isEmpty ? tab.url : tab.title)"))</title></rect>\n"
                    } else {
                        bars += "M\(from) \(y)h\(width)v8h-\(width)z"
                    }
                }
                for item in (tab.history?.items ?? []).prefix(ReportPage.historyItemsShown) where !item.timestamp.isNull {
                    ticks += "M\(x(item.timestamp)) \(y - 1)v10"
                }
            }
            if !bars.isEmpty { body += "<path class=\"tab\" d=\"\(bars)\"/>\n" }
            if !ticks.isEmpty { body += "<path class=\"nav\" d=\"\(ticks)\"/>\n" }
            rows += max(1, session.tabs.count) + 1
        }
        let height = 30 + rows * rowHeight
        for mark in marks where !mark.time.isNull {
            body +=
                "<line class=\"aside\" x1=\"\(x(mark.time))\" x2=\"\(x(mark.time))\" y1=\"10\" y2=\"\(height - 16)\"><title>\(HTML.escape(mark.label))</title></line>\n"
        }
        let axis =
            "<text class=\"axis\" x=\"\(laneLabel)\" y=\"\(height - 4)\">\(HTML.escape(Timestamp(microseconds: first).iso8601 ?? ""))</text>"
            + "<text class=\"axis\" x=\"\(width - 10)\" y=\"\(height - 4)\" text-anchor=\"end\">\(HTML.escape(Timestamp(microseconds: last).iso8601 ?? ""))</text>"
        return
            "<svg class=\"timeline\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\" role=\"img\" aria-label=\"timeline of the tabs\">\n\(body)\(axis)</svg>"
    }

    /// The first characters of a window's id that tell it from the others, for its lane: the id
    /// itself when short; for a window of a session file (`FILE#N`, one id per window of the
    /// file), the file's name shortened before its window's number; else its first 13 characters.
    static func laneName(_ id: String) -> String {
        guard id.count > 13 else { return id }
        let name = lastPathComponent(id)
        guard let mark = name.lastIndex(of: "#") else { return String(id.prefix(13)) }
        guard name.count > 13 else { return name }
        let window = name[mark...]
        return String(name[..<mark].prefix(max(1, 12 - window.count))) + "…" + window
    }
}
