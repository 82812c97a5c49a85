/// The lexical pieces of JSON text that JSONValue and JSONWriter both write: strings, integers and
/// the newline and indentation of the pretty layout.
enum JSONText {
    /// A newline and the spaces of the first levels of indentation, appended as one piece.
    private static let newlineAndSpaces: [UInt8] = [10] + Array(repeating: 32, count: 64)

    /// A newline, then two spaces per level of indentation.
    static func newline(_ out: inout [UInt8], _ indent: Int) {
        let width = 1 + indent * 2
        if width <= newlineAndSpaces.count {
            newlineAndSpaces.withUnsafeBufferPointer { out.append(contentsOf: UnsafeBufferPointer(rebasing: $0[..<width])) }
        } else {
            out.append(10)
            out.append(contentsOf: repeatElement(32, count: indent * 2))
        }
    }

    /// Lowercase hexadecimal digits, for the \u escapes of control characters.
    static let hexDigits = Array("0123456789abcdef".utf8)

    /// Writes the decimal digits of an integer, without making a String of it.
    static func writeInteger(_ value: Int64, to out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        // The magnitude as unsigned, so that Int64.min has one too.
        var magnitude = value.magnitude
        // 24 bytes: room for the 20 digits of UInt64.max.
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { buffer in
            var start = buffer.count
            repeat {
                start -= 1
                buffer[start] = UInt8(48 + magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[start...]))
        }
    }

    /// True for the bytes a JSON string literal cannot hold as they are: controls, the quote, the
    /// backslash, and 0xE2 (the first byte of U+2028 and U+2029, looked at more closely).
    static let needsAttention: [Bool] = (0..<256).map { byte in
        byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0xE2
    }

    /// Writes a JSON string literal; runs of bytes that need no escaping are copied at once.
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// True when one of eight bytes may need escaping (a control, `"`, `\` or 0xE2): any byte below
    /// 0x20, or equal to one of the three. Exact as a yes or no; bytes are then looked at one by one.
    static func mayNeedAttention(_ word: UInt64) -> Bool {
        func hasZeroByte(_ value: UInt64) -> Bool { (value &- ones) & ~value & highBits != 0 }
        let below0x20 = (word &- ones &* 0x20) & ~word & highBits != 0
        return below0x20 || hasZeroByte(word ^ (ones &* 0x22)) || hasZeroByte(word ^ (ones &* 0x5C))
            || hasZeroByte(word ^ (ones &* 0xE2))
    }

    static func writeString(_ value: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var copy = value
        let attention = needsAttention
        copy.withUTF8 { bytes in
            var runStart = 0
            var index = 0
            while index < bytes.count {
                // Most bytes need no escaping: skip eight at a time while none of them does.
                if let base = bytes.baseAddress, bytes.count >= 8 {
                    // The last eight bytes are read as one word too (overlapping those already seen).
                    let wordStart = min(index, bytes.count - 8)
                    if !mayNeedAttention(UnsafeRawPointer(base + wordStart).loadUnaligned(as: UInt64.self)) {
                        index = wordStart + 8
                        continue
                    }
                }
                let byte = bytes[index]
                if !attention[Int(byte)] {
                    index += 1
                    continue
                }
                var escape: [UInt8]?
                var width = 1
                switch byte {
                case UInt8(ascii: "\""): escape = Array("\\\"".utf8)
                case UInt8(ascii: "\\"): escape = Array("\\\\".utf8)
                case 0x0A: escape = Array("\\n".utf8)
                case 0x0D: escape = Array("\\r".utf8)
                case 0x09: escape = Array("\\t".utf8)
                case 0x08: escape = Array("\\b".utf8)
                case 0x0C: escape = Array("\\f".utf8)
                case 0x00..<0x20:
                    escape = Array("\\u00".utf8) + [hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 15)]]
                case 0xE2
                where index + 2 < bytes.count && bytes[index + 1] == 0x80 && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
                    // U+2028 and U+2029 are escaped so that the output is also valid JavaScript.
                    escape = Array((bytes[index + 2] == 0xA8 ? "\\u2028" : "\\u2029").utf8)
                    width = 3
                default: break
                }
                if let escape {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                    out.append(contentsOf: escape)
                    index += width
                    runStart = index
                } else {
                    index += 1
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
        }
        out.append(UInt8(ascii: "\""))
    }
}
