import FileSystemKit
import SessionFormats

/// The `sessionctl.repair/1` JSON document: the plan, what was done, what is left.
public enum RepairDocument {
    public static let schema = "sessionctl.repair/1"

    /// The document for a run.
    public static func encode(_ result: Repairer.Result) -> JSONValue {
        let after = result.after
        let outcomeKey = ValidationDocument.outcomeKey(of: result.plan.before.browser)
        return .object([
            ("schema", .string(schema)),
            ("browser", .string(result.plan.before.browser)),
            ("product", .string(result.plan.before.productNamed.name)),
            ("productEvidence", .string(result.plan.before.productNamed.evidence)),
            ("dryRun", .bool(result.dryRun)),
            ("plan", .array(result.plan.actions.map(encode))),
            (
                "effects",
                .array(
                    result.plan.effects.map { effect in
                        .object([
                            ("session", .string(effect.session)), ("incognito", .bool(effect.incognito)), ("what", .string(effect.what)),
                            ("from", .string(effect.from)), ("to", .string(effect.to))
                        ])
                    })
            ),
            ("done", .array(result.steps.flatMap(encodeEach))),
            ("unrepaired", .array(result.remaining.map { ValidationDocument.encode($0, outcomeKey: outcomeKey) })),
            (
                "result",
                .object([
                    ("clean", .bool(result.isClean)),
                    ("errors", after.map { .int(Int64($0.errors)) } ?? .null),
                    ("warnings", after.map { .int(Int64($0.warnings)) } ?? .null)
                ])
            )
        ])
    }

    static func encode(_ action: RepairAction) -> JSONValue {
        .object([
            ("rule", .string(action.rule.name)),
            ("session", .string(action.session)),
            ("incognito", .bool(action.incognito)),
            ("file", .string(action.file)),
            ("action", .string(action.action)),
            ("reason", .string(action.reason))
        ])
    }

    /// A step as the objects of `done`: files set aside together are one object each, naming the
    /// entry that holds them all.
    static func encodeEach(_ step: RepairStep) -> [JSONValue] {
        guard case .setAsideFiles(let files, let entry, let path) = step else { return [encode(step)] }
        return files.map { encode(.setAsideFiles(files: [$0], entry: entry, path: path)) }
    }

    static func encode(_ step: RepairStep) -> JSONValue {
        switch step {
        case .setAside(let directory, let entry, let path):
            return .object([
                ("operation", .string("set-aside")), ("path", .string(directory)), ("entry", .string(entry)), ("to", .string(path))
            ])
        case .setAsideFiles(let files, let entry, let path):
            return .object([
                ("operation", .string("set-aside")), ("path", .string(files.first ?? "")), ("entry", .string(entry)),
                ("to", .string(joinPath(path, files.first ?? "")))
            ])
        case .removed(let path):
            return .object([("operation", .string("remove")), ("path", .string(path)), ("entry", .null), ("to", .null)])
        case .wrote(let path):
            return .object([("operation", .string("write")), ("path", .string(path)), ("entry", .null), ("to", .null)])
        case .finishedInterrupted(let directory):
            return .object([("operation", .string("finish-interrupted")), ("path", .string(directory)), ("entry", .null), ("to", .null)])
        case .removedUnfinished(let directory):
            return .object([("operation", .string("remove-unfinished")), ("path", .string(directory)), ("entry", .null), ("to", .null)])
        case .settledSetAside(let what):
            return .object([("operation", .string("finish-set-aside")), ("path", .string(what)), ("entry", .null), ("to", .null)])
        }
    }
}
