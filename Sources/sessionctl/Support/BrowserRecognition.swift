import SessionFormats

extension BrowserFamilies {
    /// The family that recognises `path` (a profile, session directory or session file) and the
    /// browser of it that wrote it, as locating it tells; nil when none does or it is compressed:
    /// what compress and decompress report.
    static func recognising(_ path: String) -> (browser: String, product: BrowserProduct)? {
        guard !CompressedInput.isGzip(path), let input = try? InputOpener.open(path) else { return nil }
        return (input.browser, family(of: input).product(of: input))
    }

    /// The `browser`, `product` and `productEvidence` members of a document about `path` (null
    /// when no family recognises it).
    static func recognisedMembers(_ path: String) -> [(String, JSONValue)] {
        let recognised = recognising(path)
        return [
            ("browser", .string(recognised?.browser)), ("product", .string(recognised?.product.name)),
            ("productEvidence", .string(recognised?.product.evidence))
        ]
    }
}
