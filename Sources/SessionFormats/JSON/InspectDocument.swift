import Foundation
import SessionModel

/// The `sessionctl.inspect/1` JSON document: sessions to JSON for `inspect`, and back for `import`.
public enum InspectDocument {
    public static let schema = "sessionctl.inspect/1"

    /// The document for `sessions`; with `history`, each tab carries its data.pb fields (null when unread).
    public static func encode(_ sessions: [Session], history: Bool) -> JSONValue {
        .object([
            ("schema", .string(schema)),
            ("sessions", .array(OrderedParallelMap.map(sessions) { encode($0, history: history) })),
        ])
    }

    /// Writes the pretty-printed document for `sessions` a session at a time through `emit`: the
    /// bytes of `encode(sessions, history:).serializedBytes()`, without holding all of them at once.
    public static func write(_ sessions: [Session], history: Bool, to emit: ([UInt8]) -> Void) {
        // The frame is what JSONValue writes for {"schema": ..., "sessions": [...]} at the top level.
        emit(Array("{\n  \"schema\": ".utf8) + JSONValue.string(schema).serializedBytes() + Array(",\n  \"sessions\": ".utf8))
        guard !sessions.isEmpty else {
            emit(Array("[]\n}".utf8))
            return
        }
        emit([UInt8(ascii: "[")])
        for (index, session) in sessions.enumerated() {
            emit(Array((index > 0 ? ",\n    " : "\n    ").utf8))
            emit(encode(session, history: history).serializedBytes(prettyAtLevel: 2))
        }
        emit(Array("\n  ]\n}".utf8))
    }

    static func encode(_ session: Session, history: Bool) -> JSONValue {
        .object([
            ("id", .string(session.id)),
            ("incognito", .bool(session.incognito)),
            ("format", .string(session.format.rawValue)),
            ("activeIndex", .int(Int64(session.activeIndex))),
            ("pinnedCount", .int(Int64(session.pinnedCount))),
            ("tabs", .array(OrderedParallelMap.map(session.tabs) { encode($0, history: history) })),
            ("groups", .array(session.groups.map(encode))),
        ])
    }

    static func encode(_ tab: Tab, history withHistory: Bool) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("id", .int(Int64(tab.id))),
            ("title", .string(tab.title)),
            ("url", .string(tab.url)),
            ("creationTime", .string(tab.creationTime.iso8601)),
            ("lastActiveTime", .string(tab.lastActiveTime.iso8601)),
            ("navigationItemCount", .int(Int64(tab.navigationItemCount))),
            ("opener", tab.opener.map { .object([("index", .int(Int64($0.index))), ("navigationIndex", .int(Int64($0.navigationIndex)))]) } ?? .null),
            ("pinned", .bool(tab.pinned)),
        ]
        if let stable = tab.stableIdentifier {
            members.append(("stableIdentifier", .string(stable)))
        }
        if withHistory {
            if let history = tab.history {
                members += [
                    ("hasOpener", .bool(history.hasOpener)),
                    ("userAgent", enumValue(history.userAgent)),
                    ("history", .object([
                        ("lastCommittedIndex", .int(Int64(history.lastCommittedIndex))),
                        ("items", .array(history.items.map(encode))),
                    ])),
                ]
                if !history.certificates.isEmpty {
                    members.append(("certificates", .array(history.certificates.map { record in
                        .object([
                            ("host", .string(record.host)),
                            ("status", .int(Int64(record.status))),
                            ("certificate", .string(Data(record.certificate).base64EncodedString())),
                        ])
                    })))
                }
            } else {
                members += [("hasOpener", .null), ("userAgent", .null), ("history", .null)]
            }
        }
        return .object(members)
    }

    static func encode(_ item: NavigationItem) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("url", .string(item.url)),
            ("virtualURL", .string(item.virtualURL)),
            ("title", .string(item.title)),
            ("timestamp", .string(item.timestamp.iso8601)),
            ("userAgent", enumValue(item.userAgent)),
            ("referrer", item.referrer.map { .object([("url", .string($0.url)), ("policy", enumValue($0.policy))]) } ?? .null),
            ("headers", .array(item.headers.map { .object([("name", .string($0.name)), ("value", .string($0.value))]) })),
        ]
        if !item.securityScopedFileResource.isEmpty {
            members.append(("securityScopedFileResource", .string(Data(item.securityScopedFileResource).base64EncodedString())))
        }
        return .object(members)
    }

    static func encode(_ group: TabGroup) -> JSONValue {
        .object([
            ("start", .int(Int64(group.start))),
            ("count", .int(Int64(group.count))),
            ("title", .string(group.title)),
            ("color", enumValue(group.color)),
            ("collapsed", .bool(group.collapsed)),
            ("id", .string(group.id?.hex)),
        ])
    }

    /// An enum as its lowerCamel name, or as its number when out of range.
    static func enumValue<E: ChromeEnum>(_ value: E) -> JSONValue {
        value.isKnown ? .string(value.name) : .int(Int64(value.rawValue))
    }
}
