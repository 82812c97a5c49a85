import SessionModel

/// The text view of `inspect`: windows, then tabs with index, id, markers, title, url and times.
enum InspectText {
    static func print(_ sessions: [Session], history: Bool) {
        if sessions.isEmpty { Output.line("no sessions") }
        for (number, session) in sessions.enumerated() {
            if number > 0 { Output.line() }
            let kind = session.incognito ? "incognito " : ""
            Output.line(
                "\(kind)session \(session.id) (\(session.format.rawValue)): \(session.tabs.count) tab\(session.tabs.count == 1 ? "" : "s"), active \(session.activeIndex), pinned \(session.pinnedCount)"
            )
            for (index, tab) in session.tabs.enumerated() {
                var marks = ""
                marks += index == Int(session.activeIndex) ? "*" : " "
                marks += tab.pinned ? "P" : " "
                marks += tab.opener != nil ? "o" : " "
                // Firefox for iOS marks each tab private, and names it by UUID.
                if !session.format.isChrome { marks += tab.incognito ? "I" : " " }
                // Chromium desktop: recovered from past where Chrome stops reading.
                if session.format == .snss { marks += tab.salvaged ? "S" : " " }
                let title = tab.title.isEmpty ? "(untitled)" : tab.title
                let name = session.format.isChrome ? "#\(tab.id)" : tab.stableIdentifier ?? "#\(tab.id)"
                Output.line("  \(marks) [\(index)] \(name) \(title)")
                Output.line("         \(tab.url.isEmpty ? "(no url)" : tab.url)")
                var details =
                    "created \(tab.creationTime.iso8601 ?? "-"), active \(tab.lastActiveTime.iso8601 ?? "-"), \(tab.navigationItemCount) item\(tab.navigationItemCount == 1 ? "" : "s")"
                if let opener = tab.opener { details += ", opened by [\(opener.index)] at item \(opener.navigationIndex)" }
                Output.line("         \(details)")
                if history {
                    guard let tabHistory = tab.history else {
                        let file = session.format.isChrome ? "data.pb" : "tab-session-data file"
                        Output.line("         history: unavailable (\(file) missing or unreadable)")
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
        let privateMark = sessions.contains { !$0.format.isChrome } ? ", I private" : ""
        let salvagedMark = sessions.contains { $0.format == .snss } ? ", S salvaged (read past where the browser stops)" : ""
        Output.line("legend: * active, P pinned, o has opener\(privateMark)\(salvagedMark)")
    }

    /// The tabs and windows closed in a session that the browser keeps to reopen, most recent first.
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
