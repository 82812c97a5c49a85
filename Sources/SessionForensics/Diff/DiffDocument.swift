import SessionFormats
import SessionModel

/// The `sessionctl.diff/1` JSON document of docs/cli.md, with two additions the contract allows:
/// `pinnedCount` (like `activeIndex`) and `groups` (added, removed, changed) per session.
public enum DiffDocument {
    public static let schema = "sessionctl.diff/1"

    /// The document for a comparison; `unreadable` lists the sessions of either side that could
    /// not be read (left out of the comparison), which also makes the sides not identical;
    /// `browsers` names the family each side was read as, `products` the browser of the family
    /// that wrote each side and what says so.
    public static func encode(
        _ diff: ProfileDiff, unreadable: [(side: String, error: ReadError)] = [], browsers: (a: String, b: String)? = nil,
        products: (a: BrowserProduct, b: BrowserProduct)? = nil
    ) -> JSONValue {
        var members: [(String, JSONValue)] = [("schema", .string(schema))]
        if let browsers { members.append(("browsers", .object([("a", .string(browsers.a)), ("b", .string(browsers.b))]))) }
        if let products {
            members.append(("products", .object([("a", .string(products.a.name)), ("b", .string(products.b.name))])))
            members.append(
                ("productEvidence", .object([("a", .string(products.a.evidence)), ("b", .string(products.b.evidence))])))
        }
        members += [
            ("identical", .bool(diff.identical && unreadable.isEmpty)),
            ("sessions", .array(diff.sessions.map(encode))),
            (
                "summary",
                .object([
                    ("sessionsAdded", .int(Int64(diff.sessions.count { $0.status == .added }))),
                    ("sessionsRemoved", .int(Int64(diff.sessions.count { $0.status == .removed }))),
                    ("sessionsChanged", .int(Int64(diff.sessions.count { $0.status == .changed }))),
                    ("tabsAdded", .int(Int64(diff.sessions.reduce(0) { $0 + $1.tabs.added.count }))),
                    ("tabsRemoved", .int(Int64(diff.sessions.reduce(0) { $0 + $1.tabs.removed.count }))),
                    ("tabsMoved", .int(Int64(diff.sessions.reduce(0) { $0 + $1.tabs.moved.count }))),
                    ("tabsChanged", .int(Int64(diff.sessions.reduce(0) { $0 + $1.tabs.changed.count })))
                ])
            )
        ]
        if !unreadable.isEmpty { members.append(("unreadable", .array(unreadable.map { $0.error.json(side: $0.side) }))) }
        return .object(members)
    }

    static func encode(_ session: SessionDiff) -> JSONValue {
        .object([
            ("id", .string(session.id)),
            ("incognito", .bool(session.incognito)),
            ("status", .string(session.status.rawValue)),
            ("formats", .object([("a", .string(session.before?.format.rawValue)), ("b", .string(session.after?.format.rawValue))])),
            ("activeIndex", encode(session.activeIndex)),
            ("pinnedCount", encode(session.pinnedCount)),
            (
                "tabs",
                .object([
                    ("added", .array(session.tabs.added.map(encode))),
                    ("removed", .array(session.tabs.removed.map(encode))),
                    (
                        "moved",
                        .array(
                            session.tabs.moved.map { move in
                                .object([("id", .int(Int64(move.tab.id))), ("from", .int(Int64(move.from))), ("to", .int(Int64(move.to)))])
                            })
                    ),
                    (
                        "changed",
                        .array(
                            session.tabs.changed.map { change in
                                let values = change.values(in: session)
                                return .object([
                                    ("id", .int(Int64(change.after.id))),
                                    ("fields", .array(change.fields.map { .string($0.rawValue) })),
                                    (
                                        "values",
                                        .object(
                                            values.map {
                                                ($0.field.rawValue, .object([("from", .string($0.from)), ("to", .string($0.to))]))
                                            })
                                    )
                                ])
                            })
                    )
                ])
            ),
            (
                "groups",
                .object([
                    ("added", .array(session.groups.added.map(encode))),
                    ("removed", .array(session.groups.removed.map(encode))),
                    (
                        "changed",
                        .array(
                            session.groups.changed.map { change in
                                .object([
                                    ("id", .string(change.after.id?.hex)),
                                    ("title", .string(change.after.title)),
                                    ("fields", .array(change.fields.map { .string($0.rawValue) }))
                                ])
                            })
                    )
                ])
            )
        ])
    }

    static func encode(_ change: ValueChange<Int32>?) -> JSONValue {
        guard let change else { return .null }
        return .object([("from", .int(Int64(change.from))), ("to", .int(Int64(change.to)))])
    }

    static func encode(_ placement: TabPlacement) -> JSONValue {
        .object([
            ("id", .int(Int64(placement.tab.id))),
            ("index", .int(Int64(placement.index))),
            ("url", .string(placement.tab.url))
        ])
    }

    static func encode(_ group: TabGroup) -> JSONValue {
        .object([
            ("id", .string(group.id?.hex)),
            ("title", .string(group.title)),
            ("start", .int(Int64(group.start))),
            ("count", .int(Int64(group.count)))
        ])
    }
}
