import SessionFormats
import SessionModel

/// The text view of `inspect`: windows, then tabs with index, id, markers, title, url and times.
enum InspectText {
    static func print(_ sessions: [Session], history: Bool) {
        if sessions.isEmpty { Output.line("no sessions") }
        for (number, session) in sessions.enumerated() {
            if number > 0 { Output.line() }
            let kind = session.incognito ? "incognito " : ""
            let look = BrowserFamilies.presentation(of: session.format)
            Output.line(
                "\(kind)session \(session.id) (\(session.format.rawValue)): \(session.tabs.count) tab\(session.tabs.count == 1 ? "" : "s"), active \(session.activeIndex), pinned \(session.pinnedCount)"
            )
            for (index, tab) in session.tabs.enumerated() {
                var marks = ""
                marks += index == Int(session.activeIndex) ? "*" : " "
                marks += tab.pinned ? "P" : " "
                marks += tab.opener != nil ? "o" : " "
                if look.marksPrivateTabs { marks += tab.incognito ? "I" : " " }
                if look.marksSalvagedTabs { marks += tab.salvaged ? "S" : " " }
                let title = tab.title.isEmpty ? "(untitled)" : tab.title
                let name = look.namedByStableIdentifier ? tab.stableIdentifier ?? "#\(tab.id)" : "#\(tab.id)"
                Output.line("  \(marks) [\(index)] \(name) \(title)")
                Output.line("         \(tab.url.isEmpty ? "(no url)" : tab.url)")
                var details =
                    "created \(tab.creationTime.iso8601 ?? "-"), active \(tab.lastActiveSinceBoot.map(InspectText.sinceBoot) ?? tab.lastActiveTime.iso8601 ?? "-"), \(tab.navigationItemCount) item\(tab.navigationItemCount == 1 ? "" : "s")"
                if let opener = tab.opener { details += ", opened by [\(opener.index)] at item \(opener.navigationIndex)" }
                Output.line("         \(details)")
                if history {
                    guard let tabHistory = tab.history else {
                        Output.line("         history: unavailable (\(look.historyFile) missing or unreadable)")
                        continue
                    }
                    for (itemIndex, item) in tabHistory.items.enumerated() {
                        let mark = itemIndex == Int(tabHistory.lastCommittedIndex) ? ">" : " "
                        Output.line("         \(mark) \(itemIndex): \(item.displayURL) \(item.title.isEmpty ? "" : "\"\(item.title)\"")")
                    }
                }
            }
            for group in session.groups {
                let title = group.title.isEmpty ? "(untitled)" : group.title
                Output.line(
                    "  group \(title) [\(group.start)..<\(Int64(group.start) + Int64(group.count))] \(group.color.name)\(group.collapsed ? " collapsed" : "") id \(group.id?.hex ?? "-")"
                )
            }
            printClosed(session)
        }
        Output.line()
        let looks = sessions.map { BrowserFamilies.presentation(of: $0.format) }
        let privateMark = looks.contains(where: \.marksPrivateTabs) ? ", I private" : ""
        let salvagedMark = looks.contains(where: \.marksSalvagedTabs) ? ", S salvaged (read past where the browser stops)" : ""
        Output.line("legend: * active, P pinned, o has opener\(privateMark)\(salvagedMark)")
    }

    /// The tabs and windows closed in a session that the browser keeps to reopen, most recent first.
    /// A time on a monotonic clock, which is no date: `3d 04:05:06 after boot (monotonic clock)`.
    static func sinceBoot(_ microseconds: Int64) -> String {
        let seconds = max(0, microseconds / 1_000_000)
        let (days, rest) = seconds.quotientAndRemainder(dividingBy: 86_400)
        let clock = String(format: "%02lld:%02lld:%02lld", rest / 3600, rest % 3600 / 60, rest % 60)
        return "\(days)d \(clock) after boot (monotonic clock, not a date)"
    }

    static func printClosed(_ session: Session) {
        if !session.closedTabs.isEmpty {
            Output.line("  closed tabs: \(session.closedTabs.count)")
            for (index, tab) in session.closedTabs.enumerated() { printClosedTab(tab, index: index, indent: "    ") }
        }
        for window in session.closedWindows {
            Output.line("  closed window \(window.id): \(window.tabs.count) tab\(window.tabs.count == 1 ? "" : "s")")
            for (index, tab) in window.tabs.enumerated() { printClosedTab(tab, index: index, indent: "    ") }
        }
    }

    /// One closed tab: its place, title and URL.
    static func printClosedTab(_ tab: Tab, index: Int, indent: String) {
        let title = tab.title.isEmpty ? "(untitled)" : tab.title
        Output.line("\(indent)[\(index)] \(title)")
        Output.line(
            "\(indent)    \(tab.url.isEmpty ? "(no url)" : tab.url), \(tab.navigationItemCount) item\(tab.navigationItemCount == 1 ? "" : "s")"
        )
    }
}
