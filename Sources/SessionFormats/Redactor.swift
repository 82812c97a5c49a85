import SessionModel

/// Replaces what identifies a user's browsing (URL paths and queries, titles, header values)
/// while keeping the shape of a session (scheme and host, counts, times, ids), for sharing in tickets.
public enum Redactor {
    /// The text that replaces a title or a URL's path and query.
    public static let mark = "REDACTED"

    /// `scheme://host/REDACTED` (keeping user-less host and port); URLs without a host become `scheme:REDACTED`.
    public static func redact(url: String) -> String {
        guard !url.isEmpty else { return url }
        guard let colon = url.firstIndex(of: ":") else { return mark }
        let scheme = url[..<colon]
        var rest = url[url.index(after: colon)...]
        guard rest.hasPrefix("//") else { return "\(scheme):\(mark)" }
        rest = rest.dropFirst(2)
        var authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        let remainder = rest.dropFirst(rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }.count)
        return remainder.isEmpty || remainder == "/" ? "\(scheme)://\(authority)\(remainder)" : "\(scheme)://\(authority)/\(mark)"
    }

    /// A title replaced by the mark (empty titles stay empty).
    public static func redact(title: String) -> String { title.isEmpty ? title : mark }

    /// A session with every URL, title and header value redacted.
    public static func redact(_ session: Session) -> Session {
        var copy = session
        copy.groups = session.groups.map { group in
            var group = group
            group.title = redact(title: group.title)
            return group
        }
        copy.tabs = session.tabs.map { tab in
            var tab = tab
            tab.url = redact(url: tab.url)
            tab.title = redact(title: tab.title)
            if var history = tab.history {
                history.items = history.items.map { item in
                    var item = item
                    item.url = redact(url: item.url)
                    item.virtualURL = redact(url: item.virtualURL)
                    item.title = redact(title: item.title)
                    item.referrer = item.referrer.map { Referrer(url: redact(url: $0.url), policy: $0.policy) }
                    item.headers = item.headers.map { HTTPHeader(name: $0.name, value: mark) }
                    item.securityScopedFileResource = []
                    return item
                }
                history.certificates = []
                tab.history = history
            }
            return tab
        }
        return copy
    }
}
