/// A JSON value with object keys kept in the order they were written, so documents print exactly as the contract shows them.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// An integer (JSON numbers without fraction or exponent that fit in 64 bits).
    case int(Int64)
    /// Any other number.
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])
    /// A container nested deeper than the parser builds trees (`JSONParser.treeDepth`), kept as
    /// the well-formed bytes it was read from: written back as they are, never looked into.
    case verbatim([UInt8])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        case (.verbatim(let a), .verbatim(let b)): return a == b
        default: return false
        }
    }

    /// The value of a key of an object (the first one when a key repeats).
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    /// A string or null from an optional.
    public static func string(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }

    /// The text of this value: pretty-printed with two-space indentation, or compact.
    public func serialized(pretty: Bool = true) -> String {
        String(decoding: serializedBytes(pretty: pretty), as: UTF8.self)
    }

    /// The UTF-8 text of this value, written straight into a byte buffer (fast for large documents).
    ///
    /// The elements of the first array of `parallelArrayLength` or more elements are written on every core, each into
    /// its own buffer, and joined in order (the bytes are those of writing them one by one); with
    /// `concurrently` false, on the calling thread alone (for a document written while other work
    /// keeps the cores busy).
    public func serializedBytes(pretty: Bool = true, concurrently: Bool = true) -> [UInt8] {
        serializedBytes(prettyAtLevel: pretty ? 0 : nil, concurrently: concurrently)
    }

    /// The UTF-8 text of this value as it reads nested `level` deep in a pretty-printed document
    /// (nil: compact), so that a large document can be written a part at a time.
    public func serializedBytes(prettyAtLevel level: Int?, concurrently: Bool = true) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(4096)
        write(to: &out, indent: level, parallel: concurrently)
        return out
    }

    /// Arrays at least this long are worth writing in parallel.
    static let parallelArrayLength = 8
    /// The fewest elements of such an array written in parallel at a time.
    static let parallelBatch = 4

    private func write(to out: inout [UInt8], indent: Int?, parallel: Bool = false) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case .int(let value): JSONText.writeInteger(value, to: &out)
        case .double(let value):
            if value.isFinite {
                let text = value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
                out.append(contentsOf: text.utf8)
            } else {
                out.append(contentsOf: "null".utf8)
            }
        case .string(let value): JSONText.writeString(value, to: &out)
        case .verbatim(let bytes): out.append(contentsOf: bytes)
        case .array(let values):
            if values.isEmpty {
                out.append(contentsOf: "[]".utf8)
                return
            }
            out.append(UInt8(ascii: "["))
            let inner = indent.map { $0 + 1 }
            let inParallel = parallel && values.count >= JSONValue.parallelArrayLength
            // In parallel, an eighth of the elements (at least a few) at a time, so that only their
            // bytes are held apart from `out`.
            let batch = inParallel ? max(JSONValue.parallelBatch, values.count / 8) : values.count
            for batchStart in stride(from: 0, to: values.count, by: batch) {
                let indices = Array(batchStart..<min(batchStart + batch, values.count))
                let written: [[UInt8]]? =
                    inParallel
                    ? OrderedParallelMap.map(indices) { index in
                        var bytes: [UInt8] = []
                        values[index].write(to: &bytes, indent: inner)
                        return bytes
                    } : nil
                for (position, index) in indices.enumerated() {
                    if index > 0 { out.append(UInt8(ascii: ",")) }
                    if let indent { JSONText.newline(&out, indent + 1) }
                    if let written {
                        out.append(contentsOf: written[position])
                    } else {
                        values[index].write(to: &out, indent: inner, parallel: parallel)
                    }
                }
            }
            if let indent { JSONText.newline(&out, indent) }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            if members.isEmpty {
                out.append(contentsOf: "{}".utf8)
                return
            }
            out.append(UInt8(ascii: "{"))
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                if let indent { JSONText.newline(&out, indent + 1) }
                JSONText.writeString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                if indent != nil { out.append(32) }
                value.write(to: &out, indent: indent.map { $0 + 1 }, parallel: parallel)
            }
            if let indent { JSONText.newline(&out, indent) }
            out.append(UInt8(ascii: "}"))
        }
    }
}
