/// Firefox-style `internal://local/...` wrapper URLs (docs/chrome-ios-format.md, history
/// restoration) found in a history.
package struct InternalURL: Sendable, Hashable {
    /// The wrapper kind: `sessionrestore` or `errorpage`.
    package var kind: String
    /// The real page it wraps (its `url` parameter, percent-decoded), when it names one.
    package var wrapped: String?

    private static let prefix = "internal://local/"
    private static let kinds = ["sessionrestore", "errorpage"]

    /// Recognises a session-restore or error-page wrapper URL; nil for anything else.
    package init?(_ text: String) {
        // The prefix is ASCII, and only ASCII letters lower-case to ASCII letters: a byte
        // comparison rejects every other URL before any Character work.
        guard InternalURL.mayBeWrapper(text),
            text.utf8.count > InternalURL.prefix.utf8.count,
            text.prefix(InternalURL.prefix.count).lowercased() == InternalURL.prefix
        else { return nil }
        let rest = text.dropFirst(InternalURL.prefix.count)
        let path = rest.prefix { $0 != "?" && $0 != "#" }
        guard let kind = InternalURL.kinds.first(where: { $0 == path.lowercased() }) else { return nil }
        self.kind = kind
        var wrapped: String?
        if let question = rest.firstIndex(of: "?") {
            let query = rest[rest.index(after: question)...].prefix { $0 != "#" }
            for pair in query.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                if parts.count == 2, parts[0] == "url" {
                    wrapped = InternalURL.percentDecoded(String(parts[1]))
                    break
                }
            }
        }
        self.wrapped = wrapped
    }

    /// False when the first bytes of `text` are not the prefix in any ASCII letter case (then it is no wrapper).
    package static func mayBeWrapper(_ text: String) -> Bool {
        guard let first = text.utf8.first, first | 0x20 == UInt8(ascii: "i") else { return false }
        var bytes = text.utf8.makeIterator()
        for expected in prefix.utf8 {
            guard let byte = bytes.next(), byte | 0x20 == expected | 0x20 else { return false }
        }
        return true
    }

    /// Percent-decoding (and `+` as space); invalid escapes are kept as they are.
    package static func percentDecoded(_ text: String) -> String {
        var bytes: [UInt8] = []
        let source = Array(text.utf8)
        var index = 0
        while index < source.count {
            let byte = source[index]
            if byte == UInt8(ascii: "%"), index + 2 < source.count,
                let high = hexValue(source[index + 1]), let low = hexValue(source[index + 2])
            {
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 48...57: return byte - 48
        case 65...70: return byte - 55
        case 97...102: return byte - 87
        default: return nil
        }
    }
}

extension Rule {
    /// A rule of the iOS browsers whose histories restore through WKWebView's wrapper pages
    /// (Chrome for iOS and Firefox for iOS list it among their rules).
    public static let internalURL = Rule(
        "internal-url", .warning, .none,
        "A navigation item holds an internal://local/sessionrestore or errorpage wrapper instead of the page's URL: it will not load.",
        repair: .step("the wrapper is replaced by the page it wraps."))
}
