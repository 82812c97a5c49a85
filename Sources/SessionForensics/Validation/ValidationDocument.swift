import SessionFormats

/// The `sessionctl.validate/1` JSON document of docs/cli.md.
public enum ValidationDocument {
    public static let schema = "sessionctl.validate/1"

    /// The document for a report: findings in the report's order, then the summary.
    public static func encode(_ report: ValidationReport) -> JSONValue {
        .object([
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
            ("findings", .array(report.findings.map { encode($0, browser: report.browser) })),
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
    static func encode(_ finding: Finding, browser: String) -> JSONValue {
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
        if browser == ChromeIOSFamily().name { members.append(("chrome", .string(finding.outcome.rawValue))) }
        members.append(("outcome", .string(finding.outcome.rawValue)))
        return .object(members)
    }
}
