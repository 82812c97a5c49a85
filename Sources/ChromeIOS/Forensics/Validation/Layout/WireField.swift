import SessionForensics

/// One field of a protobuf message as it lies in the bytes: where its tag and its value start.
struct WireField: Sendable, Hashable {
    /// The field number.
    var number: Int
    /// The wire type (0 varint, 1 fixed64, 2 length-delimited, 5 fixed32).
    var wireType: Int
    /// Offset of the tag.
    var start: Int
    /// Offset of the value (for length-delimited fields, the first byte after the length).
    var value: Int
    /// Offset just past the field.
    var end: Int

    /// The fields of the message in `bytes[range]`, in order, up to the first malformed one.
    ///
    /// Used to point findings at the bytes they are about; it never traps on damaged input.
    static func fields(of bytes: [UInt8], in range: Range<Int>) -> [WireField] {
        var fields: [WireField] = []
        forEachField(of: bytes, in: range) { fields.append($0) }
        return fields
    }

    /// Calls `body` with each field of the message in `bytes[range]`, in order, up to the first
    /// malformed one (what `fields` lists, without building the list).
    static func forEachField(of bytes: [UInt8], in range: Range<Int>, _ body: (WireField) -> Void) {
        var offset = range.lowerBound
        let end = min(range.upperBound, bytes.count)
        while offset < end, let field = field(of: bytes, at: offset, end: end) {
            body(field)
            offset = field.end
        }
    }

    /// The field whose tag is at `offset` (ending before `end`), or nil when it is malformed.
    static func field(of bytes: [UInt8], at offset: Int, end: Int) -> WireField? {
        guard offset >= 0, offset < end, end <= bytes.count, let (tag, afterTag) = varint(bytes, at: offset, end: end) else { return nil }
        let number = Int(truncatingIfNeeded: tag >> 3)
        let wireType = Int(tag & 7)
        var valueStart = afterTag
        let valueEnd: Int
        switch wireType {
        case 0:
            guard let (_, next) = varint(bytes, at: afterTag, end: end) else { return nil }
            valueEnd = next
        case 1, 5:
            let size = wireType == 1 ? 8 : 4
            guard end - afterTag >= size else { return nil }
            valueEnd = afterTag + size
        case 2:
            guard let (length, next) = varint(bytes, at: afterTag, end: end), length <= UInt64(end - next) else { return nil }
            valueStart = next
            valueEnd = next + Int(length)
        default:
            return nil
        }
        return WireField(number: number, wireType: wireType, start: offset, value: valueStart, end: valueEnd)
    }

    /// The fields of the message held by this (length-delimited) field.
    func subfields(of bytes: [UInt8]) -> [WireField] {
        wireType == 2 ? WireField.fields(of: bytes, in: value..<end) : []
    }

    /// Calls `body` with each field of the message held by this (length-delimited) field.
    func forEachSubfield(of bytes: [UInt8], _ body: (WireField) -> Void) {
        if wireType == 2 { WireField.forEachField(of: bytes, in: value..<end, body) }
    }

    /// Reads a base-128 varint at `start` (before `end`): its value and the offset after it, or nil.
    static func varint(_ bytes: [UInt8], at start: Int, end: Int) -> (UInt64, Int)? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        var offset = start
        while offset < end, shift < 64 {
            let byte = bytes[offset]
            value |= UInt64(byte & 0x7f) << shift
            offset += 1
            if byte & 0x80 == 0 { return (value, offset) }
            shift += 7
        }
        return nil
    }
}
