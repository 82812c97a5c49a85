import SessionFormats

/// The `sessionctl.validate/1` JSON document of docs/cli.md.
public enum ValidationDocument {
    public static let schema = "sessionctl.validate/1"

    /// The document for a report: findings in the report's order, then the summary.
    public static func encode(_ report: ValidationReport) -> JSONValue {
        let outcomeKey = outcomeKey(of: report.browser)
        return .object([
            ("schema", .string(schema)),
            ("browser", .string(report.browser)),
            ("product", .string(report.productNamed.name)),
            ("productEvidence", .string(report.productNamed.evidence)),
            (
                "sessions",
                .array(
                    report.sources.map { source in
                        .object([
                            ("id", .string(source.id)), ("incognito", .bool(source.incognito)),
                            ("format", .string(source.format.rawValue))
                        ])
                    })
            ),
            ("findings", .array(report.findings.map { encode($0, outcomeKey: outcomeKey) })),
            (
                "summary",
                .object([
                    ("sessions", .int(Int64(report.sessions))),
                    ("tabs", .int(Int64(report.tabs))),
                    ("errors", .int(Int64(report.errors))),
                    ("warnings", .int(Int64(report.warnings))),
                    ("info", .int(Int64(report.infos)))
                ])
            )
        ])
    }

    /// A finding: what the browser does about it is `outcome`, and for Chrome for iOS also
    /// `chrome` (the key of the first version of the document).
    /// The key a finding's outcome is also given under for the family `browser` (its
    /// `earlierOutcomeKey`), nil for none.
    static func outcomeKey(of browser: String) -> String? { BrowserFamilies.named(browser)?.earlierOutcomeKey }

    /// One finding, its outcome also under `outcomeKey` when given (before `outcome`).
    static func encode(_ finding: Finding, outcomeKey: String?) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("rule", .string(finding.rule.name)),
            ("severity", .string(finding.severity.rawValue)),
            ("session", .string(finding.session)),
            ("incognito", .bool(finding.incognito)),
            ("tab", finding.tab?.index.map { .int(Int64($0)) } ?? .null),
            ("file", .string(finding.file)),
            ("offset", finding.offset.map { .int(Int64($0)) } ?? .null),
            ("message", .string(finding.message))
        ]
        if let outcomeKey { members.append((outcomeKey, .string(finding.outcome.rawValue))) }
        members.append(("outcome", .string(finding.outcome.rawValue)))
        return .object(members)
    }
}
