import SessionFormats

/// The `sessionctl.aside/1` JSON document of docs/cli.md.
public enum AsideDocument {
    public static let schema = "sessionctl.aside/1"

    /// The document listing `entries` of a profile of the family `browser`, written by `product`
    /// (the family's own when nil).
    public static func encode(_ entries: [AsideEntry], browser: String, product: BrowserProduct? = nil) -> JSONValue {
        let product = BrowserFamilies.product(product, ofFamily: browser, evidence: "known from the layout of its profile")
        return .object([
            ("schema", .string(schema)),
            ("browser", .string(browser)),
            ("product", .string(product.name)),
            ("productEvidence", .string(product.evidence)),
            (
                "entries",
                .array(
                    entries.map { entry in
                        .object([
                            ("entry", .string(entry.name)),
                            ("session", .string(entry.session)),
                            ("incognito", .bool(entry.incognito)),
                            ("origin", .string(entry.origin.rawValue)),
                            ("reason", .string(entry.reason)),
                            ("time", .string(entry.time?.iso8601)),
                            ("path", .string(entry.path)),
                            ("files", .int(Int64(entry.files))),
                            ("bytes", .int(entry.bytes))
                        ])
                    })
            )
        ])
    }
}
