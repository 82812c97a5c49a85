import SessionForensics
import SessionModel

/// The text view of `diff`: per session a header with counts, one line per tab added (+),
/// removed (-), moved (>) or changed (~) with what changed beneath it, then active index, pinned
/// count and groups; a summary line at the end. Colour only when asked for.
struct DiffText {
    let color: Bool

    func print(_ diff: ProfileDiff) {
        let differing = diff.sessions.filter { $0.status != .same }
        for (number, session) in differing.enumerated() {
            if number > 0 { Output.line() }
            printSession(session)
        }
        if differing.isEmpty {
            Output.line("no differences (\(diff.sessions.count) session\(plural(diff.sessions.count)) compared)")
        } else {
            Output.line()
            Output.line(summary(diff))
        }
    }

    private func printSession(_ session: SessionDiff) {
        func label(_ id: SessionID, _ incognito: Bool) -> String { (incognito ? "incognito session " : "session ") + id }
        var name = label(session.id, session.incognito)
        if let before = session.before, let after = session.after, before.id != after.id || before.incognito != after.incognito {
            name = label(before.id, before.incognito) + " -> " + label(after.id, after.incognito)
        }
        let tabs = session.tabs
        switch session.status {
        case .added: Output.line("\(name): added, \(tabCount(session.after))", style: paint(.bold))
        case .removed: Output.line("\(name): removed, \(tabCount(session.before))", style: paint(.bold))
        case .changed, .same:
            let counts = [
                ("added", tabs.added.count), ("removed", tabs.removed.count), ("moved", tabs.moved.count), ("changed", tabs.changed.count)
            ]
            .filter { $0.1 > 0 }.map { "\($0.1) \($0.0)" }
            let header =
                "\(name): \(tabCount(session.before)) -> \(tabCount(session.after))"
                + (counts.isEmpty ? "" : ", " + counts.joined(separator: ", "))
            Output.line(header, style: paint(.bold))
        }
        for placement in tabs.removed {
            Output.line("  - [\(placement.index)] #\(placement.tab.id) \(describe(placement.tab))", style: paint(.red))
        }
        for placement in tabs.added {
            Output.line("  + [\(placement.index)] #\(placement.tab.id) \(describe(placement.tab))", style: paint(.green))
        }
        for move in tabs.moved {
            Output.line("  > [\(move.from)] -> [\(move.to)] #\(move.tab.id) \(quoted(move.tab.title))", style: paint(.cyan))
        }
        for change in tabs.changed {
            let fields = change.fields.map(\.rawValue).joined(separator: ", ")
            Output.line("  ~ [\(change.toIndex)] #\(change.after.id) \(quoted(change.after.title)): \(fields)", style: paint(.yellow))
            for detail in details(change, session) { Output.line("      \(detail)") }
        }
        if let active = session.activeIndex {
            Output.line("  active: \(activeTab(active.from, session.before)) -> \(activeTab(active.to, session.after))")
        }
        if let pinned = session.pinnedCount {
            Output.line("  pinned tabs: \(pinned.from) -> \(pinned.to)")
        }
        for group in session.groups.removed {
            Output.line("  - group \(describe(group))", style: paint(.red))
        }
        for group in session.groups.added {
            Output.line("  + group \(describe(group))", style: paint(.green))
        }
        for change in session.groups.changed {
            Output.line("  ~ group \(quoted(change.after.title)): \(groupDetails(change).joined(separator: ", "))", style: paint(.yellow))
        }
    }

    private func details(_ change: TabChange, _ session: SessionDiff) -> [String] {
        change.values(in: session).map { value in
            let label: String
            switch value.field {
            case .lastCommittedIndex: label = "last committed item"
            case .userAgent: label = "user agent"
            case .creationTime: label = "created"
            case .lastActiveTime: label = "last active"
            default: label = value.field.rawValue
            }
            return "\(label): \(value.from) -> \(value.to)"
        }
    }

    private func groupDetails(_ change: GroupChange) -> [String] {
        change.fields.map { field in
            switch field {
            case .title: return "title \(quoted(change.before.title)) -> \(quoted(change.after.title))"
            case .color: return "color \(change.before.color.name) -> \(change.after.color.name)"
            case .collapsed: return change.after.collapsed ? "collapsed" : "expanded"
            case .tabs: return "tabs [\(range(change.before))] -> [\(range(change.after))]"
            }
        }
    }

    private func describe(_ tab: Tab) -> String {
        "\(quoted(tab.title)) \(orNone(tab.url))\(tab.salvaged ? " (salvaged: read past where the browser stops)" : "")"
    }

    private func describe(_ group: TabGroup) -> String {
        "\(quoted(group.title)) (\(group.color.name)) [\(range(group))]"
    }

    private func range(_ group: TabGroup) -> String {
        "\(group.start)..<\(Int64(group.start) + Int64(group.count))"
    }

    private func activeTab(_ index: Int32, _ session: Session?) -> String {
        guard let session, session.tabs.indices.contains(Int(index)) else { return index < 0 ? "none" : "[\(index)] (no such tab)" }
        return "[\(index)] #\(session.tabs[Int(index)].id)"
    }

    private func tabCount(_ session: Session?) -> String {
        let count = session?.tabs.count ?? 0
        return "\(count) tab\(plural(count))"
    }

    private func summary(_ diff: ProfileDiff) -> String {
        var sessions: [SessionDiff.Status: Int] = [:]
        var tabs = (added: 0, removed: 0, moved: 0, changed: 0)
        for session in diff.sessions {
            sessions[session.status, default: 0] += 1
            tabs.added += session.tabs.added.count
            tabs.removed += session.tabs.removed.count
            tabs.moved += session.tabs.moved.count
            tabs.changed += session.tabs.changed.count
        }
        let sessionParts = [SessionDiff.Status.changed, .added, .removed, .same].compactMap { status in
            sessions[status].map { "\($0) \(status.rawValue)" }
        }
        let tabParts = [("added", tabs.added), ("removed", tabs.removed), ("moved", tabs.moved), ("changed", tabs.changed)]
            .filter { $0.1 > 0 }.map { "\($0.1) \($0.0)" }
        return "\(diff.sessions.count) session\(plural(diff.sessions.count)): " + sessionParts.joined(separator: ", ")
            + (tabParts.isEmpty ? "" : "; tabs: " + tabParts.joined(separator: ", "))
    }

    private func quoted(_ text: String) -> String { text.isEmpty ? "(untitled)" : "\"\(text)\"" }
    private func orNone(_ url: String) -> String { url.isEmpty ? "(no url)" : url }
    private func plural(_ count: Int) -> String { count == 1 ? "" : "s" }

    /// ANSI styles used when colour is on.
    enum Style: String {
        case bold = "1"
        case red = "31"
        case green = "32"
        case yellow = "33"
        case cyan = "36"
    }

    /// The colour of a line when colour is on (`Output.line` adds it around the escaped text).
    private func paint(_ style: Style) -> String? {
        color ? style.rawValue : nil
    }
}
