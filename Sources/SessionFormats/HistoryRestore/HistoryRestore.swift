/// History restoration without a native API (docs/chrome-ios-format.md, history restoration): the
/// internal `sessionrestore` and `errorpage` URLs a web view loads to rebuild a back/forward list.
///
/// `internal://local/sessionrestore?history=<JSON>` pushes each URL of `{"history": [...],
/// "currentPage": n}` (n in (-N, 0]: 0 is the last URL, 1-N the first) as
/// `internal://local/sessionrestore?url=<real url>`; error pages are
/// `internal://local/errorpage?url=<original>&...`. Every internal URL carries `uuidkey=<key>`,
/// generated once per launch: `validate` rejects an internal URL whose key is missing or wrong.
/// Persisted histories may hold such URLs; `unwrapPersisted` turns them back into the real page.
public struct HistoryRestore: Sendable {
    /// The prefix of every internal URL.
    public static let base = "internal://local/"
    /// This launch's key.
    public let key: String

    /// Uses a launch's key (a UUID string, generated once per launch by the app).
    public init(key: String) { self.key = key }

    /// An internal page, as `validate` understands it.
    public enum Page: Sendable, Equatable {
        /// Rebuild a back/forward list: `urls` oldest first, `currentIndex` into them.
        case restoreHistory(urls: [String], currentIndex: Int)
        /// One pushed entry: the real page to load in place.
        case restorePage(url: String)
        /// An error page for `url`, with its other query items (uuidkey left out).
        case errorPage(url: String, parameters: [QueryItem])
    }

    /// One `name=value` item of a query, decoded.
    public struct QueryItem: Sendable, Hashable {
        public var name: String
        public var value: String
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Why an internal URL must not load.
    public enum Rejection: Error, Sendable, Equatable, CustomStringConvertible {
        case missingKey
        case wrongKey
        case unknownPage(String)
        case malformed(String)

        public var description: String {
            switch self {
            case .missingKey: return "internal URL without uuidkey"
            case .wrongKey: return "internal URL with another launch's uuidkey"
            case .unknownPage(let page): return "unknown internal page '\(page)'"
            case .malformed(let reason): return "malformed internal URL: \(reason)"
            }
        }
    }

    // MARK: Building

    /// `sessionrestore?history=...` for a back/forward list (`currentIndex` clamped into it).
    public func restoreURL(history urls: [String], currentIndex: Int) -> String {
        let index = urls.isEmpty ? 0 : min(max(currentIndex, 0), urls.count - 1)
        let json = JSONValue.object([
            ("history", .array(urls.map(JSONValue.string))),
            ("currentPage", .int(Int64(urls.isEmpty ? 0 : index - (urls.count - 1))))
        ]).serialized(pretty: false)
        return build("sessionrestore", [QueryItem(name: "history", value: json)])
    }

    /// `sessionrestore?url=...`: the entry pushed for one page of a restored list.
    public func pageURL(for url: String) -> String { build("sessionrestore", [QueryItem(name: "url", value: url)]) }

    /// `errorpage?url=...`: the error page for a URL that failed to load.
    public func errorPageURL(for url: String, parameters: [QueryItem] = []) -> String {
        build("errorpage", [QueryItem(name: "url", value: url)] + parameters)
    }

    private func build(_ page: String, _ items: [QueryItem]) -> String {
        let query = (items + [QueryItem(name: "uuidkey", value: key)])
            .map { HistoryRestore.percentEncode($0.name) + "=" + HistoryRestore.percentEncode($0.value) }
            .joined(separator: "&")
        return HistoryRestore.base + page + "?" + query
    }

    // MARK: Parsing

    /// True for any `internal://` URL (whatever its key).
    public static func isInternal(_ url: String) -> Bool {
        url.lowercased().hasPrefix("internal://")
    }

    /// Decides whether an internal URL may load in this launch, and what it asks for.
    public func validate(_ url: String) throws(Rejection) -> Page {
        let (page, items) = try HistoryRestore.split(url)
        guard let given = items.first(where: { $0.name == "uuidkey" })?.value else { throw .missingKey }
        guard given == key else { throw .wrongKey }
        return try HistoryRestore.interpret(page, items)
    }

    /// The real page behind a persisted URL: internal wrappers are unwrapped (whatever their key),
    /// any other URL is returned unchanged. A `history=` URL gives its current page.
    public static func unwrapPersisted(_ url: String) -> String {
        var current = url
        for _ in 0..<8 {
            guard isInternal(current), let (page, items) = try? split(current), let value = try? interpret(page, items) else {
                return current
            }
            switch value {
            case .restorePage(let real), .errorPage(let real, _): current = real
            case .restoreHistory(let urls, let index):
                guard urls.indices.contains(index) else { return current }
                current = urls[index]
            }
        }
        return current
    }

    private static func interpret(_ page: String, _ items: [QueryItem]) throws(Rejection) -> Page {
        let value = { (name: String) in items.first { $0.name == name }?.value }
        switch page {
        case "sessionrestore":
            if let url = value("url") { return .restorePage(url: url) }
            guard let json = value("history") else { throw .malformed("sessionrestore needs url or history") }
            guard let document = try? JSONParser.parse(Array(json.utf8), file: "history"),
                case .array(let list)? = document["history"]
            else { throw .malformed("history is not {history: [...]}") }
            var urls: [String] = []
            for entry in list {
                guard case .string(let text) = entry else { throw .malformed("history holds a non-string") }
                urls.append(text)
            }
            var current = 0
            if case .int(let number)? = document["currentPage"] { current = Int(clamping: number) }
            guard current <= 0, urls.isEmpty || current > -urls.count else {
                throw .malformed("currentPage \(current) is outside the history")
            }
            return .restoreHistory(urls: urls, currentIndex: urls.isEmpty ? 0 : urls.count - 1 + current)
        case "errorpage":
            guard let url = value("url") else { throw .malformed("errorpage needs url") }
            let rest = items.filter { $0.name != "url" && $0.name != "uuidkey" }
            return .errorPage(url: url, parameters: rest)
        default:
            throw .unknownPage(page)
        }
    }

    /// The page name and decoded query items of an internal URL.
    private static func split(_ url: String) throws(Rejection) -> (String, [QueryItem]) {
        guard url.lowercased().hasPrefix(base) else { throw .malformed("not under \(base)") }
        let rest = url.dropFirst(base.count)
        let pathEnd = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) ?? rest.endIndex
        let page = String(rest[..<pathEnd])
        var items: [QueryItem] = []
        if pathEnd < rest.endIndex, rest[pathEnd] == "?" {
            let queryEnd = rest[pathEnd...].firstIndex(of: "#") ?? rest.endIndex
            for pair in rest[rest.index(after: pathEnd)..<queryEnd].split(separator: "&", omittingEmptySubsequences: true) {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard let name = percentDecode(String(parts[0])),
                    let value = percentDecode(parts.count > 1 ? String(parts[1]) : "")
                else {
                    throw .malformed("bad percent-encoding")
                }
                items.append(QueryItem(name: name, value: value))
            }
        }
        return (page, items)
    }

    /// Percent-encodes everything but RFC 3986 unreserved characters.
    static func percentEncode(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(byte)
            default:
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes `%XX` escapes; nil when an escape is broken or the result is not UTF-8.
    static func percentDecode(_ text: String) -> String? {
        var out: [UInt8] = []
        var bytes = Array(text.utf8)[...]
        while let byte = bytes.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                out.append(byte)
                continue
            }
            guard bytes.count >= 2, let value = UInt8(String(decoding: bytes.prefix(2), as: UTF8.self), radix: 16) else { return nil }
            out.append(value)
            bytes = bytes.dropFirst(2)
        }
        return String(validating: out, as: UTF8.self)
    }
}
