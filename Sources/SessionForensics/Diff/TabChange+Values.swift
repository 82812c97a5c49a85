import SessionModel

/// What a changed field of a tab was and is, as people read it (and as `diff --format json`
/// gives it): one rendering for the text and the JSON.
public struct FieldValues: Sendable, Equatable {
    public var field: TabField
    public var from: String
    public var to: String
}

extension TabChange {
    /// The changed fields with their values on each side (`session` holds both sides' lists, for
    /// openers and groups); a field whose two renderings are the same is left out: what the
    /// comparison noticed there (an index shifted by other tabs) is no change to a person.
    public func values(in session: SessionDiff) -> [FieldValues] {
        fields.compactMap { field in
            let (from, to) = render(field, session)
            return from == to ? nil : FieldValues(field: field, from: from, to: to)
        }
    }

    private func render(_ field: TabField, _ session: SessionDiff) -> (String, String) {
        let old = before
        let new = after
        switch field {
        case .title: return (Self.quoted(old.title), Self.quoted(new.title))
        case .url: return (Self.orNone(old.url), Self.orNone(new.url))
        case .history: return historyValues()
        case .lastCommittedIndex: return ("\(old.history?.lastCommittedIndex ?? -1)", "\(new.history?.lastCommittedIndex ?? -1)")
        case .pinned: return (old.pinned ? "yes" : "no", new.pinned ? "yes" : "no")
        case .opener: return (Self.opener(old, session.before), Self.opener(new, session.after))
        case .group: return (Self.group(fromIndex, session.before), Self.group(toIndex, session.after))
        case .userAgent: return (old.history?.userAgent.name ?? "-", new.history?.userAgent.name ?? "-")
        case .creationTime: return (old.creationTime.iso8601 ?? "-", new.creationTime.iso8601 ?? "-")
        case .lastActiveTime: return (Self.lastActive(old), Self.lastActive(new))
        case .salvaged: return (old.salvaged ? "yes" : "no", new.salvaged ? "yes" : "no")
        }
    }

    private func historyValues() -> (String, String) {
        func items(_ tab: Tab) -> String {
            let count = tab.history.map { Int32(clamping: $0.items.count) } ?? tab.navigationItemCount
            return "\(count) item\(count == 1 ? "" : "s")"
        }
        switch (before.history, after.history) {
        case (nil, _?): return ("\(before.navigationItemCount) listed, data.pb unreadable", items(after))
        case (_?, nil): return (items(before), "\(after.navigationItemCount) listed, data.pb unreadable")
        default: break
        }
        var to = items(after)
        if let history {
            let parts = [("appended", history.appended), ("removed", history.removed), ("rewritten", history.rewritten)]
                .filter { $0.1 > 0 }.map { "\($0.1) \($0.0)" }
            if !parts.isEmpty { to += " (" + parts.joined(separator: ", ") + ")" }
        }
        return (items(before), to)
    }

    static func opener(_ tab: Tab, _ session: Session?) -> String {
        var text = "none"
        if let opener = tab.opener {
            let index = Int(opener.index)
            let target =
                session.flatMap { $0.tabs.indices.contains(index) ? "#\($0.tabs[index].id)" : nil } ?? "[\(opener.index)] (no such tab)"
            text = "\(target) at item \(opener.navigationIndex)"
        }
        if let history = tab.history { text += history.hasOpener ? " (opened by a page)" : "" }
        return text
    }

    static func group(_ index: Int, _ session: Session?) -> String {
        guard let session else { return "none" }
        let found = session.groups.first { $0.memberIndexes(tabCount: session.tabs.count).contains(index) }
        return found.map { quoted($0.title) } ?? "none"
    }

    static func quoted(_ text: String) -> String { text.isEmpty ? "(untitled)" : "\"\(text)\"" }
    static func orNone(_ url: String) -> String { url.isEmpty ? "(no url)" : url }

    /// A tab's last activity: its date, or on a monotonic clock the microseconds since boot (no date).
    static func lastActive(_ tab: Tab) -> String {
        if let sinceBoot = tab.lastActiveSinceBoot { return "\(sinceBoot) µs after boot (monotonic clock)" }
        return tab.lastActiveTime.iso8601 ?? "-"
    }
}
