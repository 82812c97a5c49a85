/// Writes pretty-printed JSON straight into bytes, laid out exactly as `JSONValue` prints it, without
/// building a tree of values first (large documents are written with no more than their bytes).
///
/// Values are written in order: `beginObject()`, then `key(_:)` and a value for each member, then
/// `endObject()`; arrays alike. An empty object or array prints as `{}` or `[]`.
public struct JSONWriter {
    /// The bytes written so far (or since the last `take()`).
    public private(set) var bytes: [UInt8] = []
    /// For each open object or array, outermost first: whether it has a member or element yet.
    private var filled: [Bool] = []
    /// The indentation level of the values this writer writes at the top.
    private let baseLevel: Int
    /// True right after `key(_:)`: the value that follows belongs to that member.
    private var afterKey = false

    /// A writer whose outermost value reads as if nested `level` deep in a pretty-printed document.
    public init(level: Int = 0, capacity: Int = 4096) {
        baseLevel = level
        bytes.reserveCapacity(capacity)
        filled.reserveCapacity(16)
    }

    /// Hands over the bytes written so far and starts an empty buffer (the nesting is kept).
    public mutating func take() -> [UInt8] {
        defer { bytes.removeAll(keepingCapacity: true) }
        return bytes
    }

    private static let trueBytes: [UInt8] = Array("true".utf8)
    private static let falseBytes: [UInt8] = Array("false".utf8)
    private static let nullBytes: [UInt8] = Array("null".utf8)

    /// The indentation level of the next value written here (what a writer of a value for
    /// `written(_:)` is made with).
    public var level: Int { baseLevel + filled.count }

    /// The separator before a value: after a key nothing more; in an array a comma after the first
    /// element, then a new line at the array's inner indentation.
    private mutating func separate() {
        if afterKey {
            afterKey = false
            return
        }
        guard let last = filled.last else { return }
        if last { bytes.append(UInt8(ascii: ",")) }
        filled[filled.count - 1] = true
        JSONText.newline(&bytes, level)
    }

    /// Opens an object.
    public mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        filled.append(false)
    }

    /// Closes the innermost open object.
    public mutating func endObject() { close(UInt8(ascii: "}")) }

    /// Opens an array.
    public mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        filled.append(false)
    }

    /// Closes the innermost open array.
    public mutating func endArray() { close(UInt8(ascii: "]")) }

    private mutating func close(_ bracket: UInt8) {
        let wasFilled = filled.removeLast()
        if wasFilled { JSONText.newline(&bytes, level) }
        bytes.append(bracket)
    }

    /// The key of the next member of the open object, a name written in the source: plain ASCII
    /// that needs no escaping, so it is copied as it is.
    public mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        endKey()
    }

    /// The key of the next member of the open object, any string (escaped as needed).
    public mutating func key(escaping name: String) {
        separate()
        JSONText.writeString(name, to: &bytes)
        endKey()
    }

    /// The `: ` after a key; the value written next belongs to it.
    private mutating func endKey() {
        bytes.append(UInt8(ascii: ":"))
        bytes.append(32)
        afterKey = true
    }

    /// A string value.
    public mutating func string(_ value: String) {
        separate()
        JSONText.writeString(value, to: &bytes)
    }

    /// A string, or null for nil.
    public mutating func string(_ value: String?) {
        guard let value else { return null() }
        string(value)
    }

    /// An integer value.
    public mutating func int(_ value: Int64) {
        separate()
        JSONText.writeInteger(value, to: &bytes)
    }

    /// `true` or `false`.
    public mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: value ? JSONWriter.trueBytes : JSONWriter.falseBytes)
    }

    /// `null`.
    public mutating func null() {
        separate()
        bytes.append(contentsOf: JSONWriter.nullBytes)
    }

    /// A value already written by another writer made at this writer's current level (for values
    /// written in parallel and joined in order).
    public mutating func written(_ value: [UInt8]) {
        separate()
        bytes.append(contentsOf: value)
    }
}
