import SessionFormats
import SessionModel
import SessionStore

/// The `sessionctl.migrate/1` JSON document: the plan, and with it what was done (unless a dry run).
public enum MigrationDocument {
    public static let schema = "sessionctl.migrate/1"

    /// The document for `plan`; `outcome` is nil for a dry run.
    public static func encode(_ plan: MigrationPlan, outcome: MigrationOutcome?) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("schema", .string(schema)),
            // Chrome for iOS's two formats, or Firefox for iOS's archive to its window files.
            ("browser", .string(plan.target.browser)),
            ("target", .string(plan.target.rawValue)),
            ("dryRun", .bool(outcome == nil)),
            ("sides", .array(plan.sides.map(encode)))
        ]
        if let outcome {
            members.append(("written", .array(outcome.written.map(JSONValue.string))))
            members.append(
                (
                    "setAside",
                    .array(
                        outcome.setAside.map { entry in
                            .object([
                                ("entry", .string("\(entry.key.id)@\(entry.stamp)")), ("session", .string(entry.key.id)),
                                ("incognito", .bool(entry.key.incognito)), ("path", .string(entry.path))
                            ])
                        })
                ))
            members.append(("removed", .array(outcome.removed.map(JSONValue.string))))
        }
        return .object(members)
    }

    static func encode(_ side: MigrationSidePlan) -> JSONValue {
        .object([
            ("incognito", .bool(side.incognito)),
            ("from", .string(side.conversion?.from.rawValue)),
            ("abandonedNewTree", .bool(side.abandonedNewTree)),
            ("displacedSessions", .array(side.displacedSessions.map(JSONValue.string))),
            ("shadowedLegacySessions", .array(side.shadowedLegacySessions.map(JSONValue.string))),
            (
                "sessions",
                .array(
                    (side.conversion?.sessions ?? []).map { session in
                        .object([
                            ("id", .string(session.id)),
                            ("tabsBefore", .int(Int64(session.sourceTabCount))),
                            ("tabsAfter", .int(Int64(session.session.tabs.count))),
                            ("stateLinks", .int(Int64(session.stateLinks.count))),
                            (
                                "changes",
                                .array(
                                    session.changes.map { change in
                                        .object([
                                            ("tab", change.tab.map { .int(Int64($0)) } ?? .null),
                                            ("by", .string(change.origin.rawValue)), ("message", .string(change.message))
                                        ])
                                    })
                            )
                        ])
                    })
            )
        ])
    }
}
