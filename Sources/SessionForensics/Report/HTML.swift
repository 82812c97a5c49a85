/// The one place where text from a profile becomes HTML: every title, URL, path, reason and
/// message in a report goes through `HTML.escape`, in element content and in quoted attribute
/// values alike, so that no byte of a profile can open a tag, close an attribute or start an
/// entity of its own.
public enum HTML {
    /// `text` with `&`, `<`, `>`, `"` and `'` as character references, and control characters
    /// other than tab and line feed as U+FFFD (they have no place in an HTML document).
    public static func escape(_ text: String) -> String {
        // Most titles and URLs need nothing: returned as they are, without a copy.
        if !needsEscaping(text) { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            case "\t", "\n": result.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                    result += "\u{FFFD}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// Whether any byte of `text` may need a change: the five characters, a control character,
    /// DEL, or 0xC2 (which leads the C1 controls U+0080-U+009F).
    ///
    /// Eight bytes are tested at a time (a report is mostly titles and URLs that need nothing);
    /// each test is exact, so a word that passes holds none of those bytes.
    static func needsEscaping(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            var index = 0
            if let base = bytes.baseAddress {
                let raw = UnsafeRawPointer(base)
                while index + 8 <= bytes.count {
                    if wordMayNeedEscaping(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) { return true }
                    index += 8
                }
            }
            while index < bytes.count {
                if byteNeedsEscaping(bytes[index]) { return true }
                index += 1
            }
            return false
        }
    }

    /// Whether `byte` is one that `escape` changes or may change.
    private static func byteNeedsEscaping(_ byte: UInt8) -> Bool {
        // Bit b set: byte b (below 64) may need a change: controls, " & ' < >.
        let low: UInt64 = 0xFFFF_FFFF | 1 << 0x22 | 1 << 0x26 | 1 << 0x27 | 1 << 0x3C | 1 << 0x3E
        return byte < 64 ? (low >> UInt64(byte)) & 1 == 1 : (byte == 0x7F || byte == 0xC2)
    }

    /// Whether any of the eight bytes of `word` is one `byteNeedsEscaping` accepts.
    private static func wordMayNeedEscaping(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        /// Nonzero exactly when some byte of `value` is zero.
        func hasZero(_ value: UInt64) -> UInt64 { (value &- ones) & ~value & highs }
        let below0x20 = (word &- ones &* 0x20) & ~word & highs
        let quotes = hasZero(word ^ (ones &* 0x22)) | hasZero(word ^ (ones &* 0x26)) | hasZero(word ^ (ones &* 0x27))
        let brackets = hasZero(word ^ (ones &* 0x3C)) | hasZero(word ^ (ones &* 0x3E))
        let others = hasZero(word ^ (ones &* 0x7F)) | hasZero(word ^ (ones &* 0xC2))
        return below0x20 | quotes | brackets | others != 0
    }

    /// The text of `escape`'s output read back (the five references it writes), scalar by scalar
    /// as an HTML parser reads it (a combining mark after a reference does not hide it): for tests.
    public static func unescape(_ html: String) -> String {
        let references: [(String, Unicode.Scalar)] = [("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'")]
        let scalars = Array(html.unicodeScalars)
        var result = String.UnicodeScalarView()
        var index = 0
        scan: while index < scalars.count {
            if scalars[index] == "&" {
                for (reference, scalar) in references {
                    let length = reference.unicodeScalars.count
                    if index + length <= scalars.count, String(String.UnicodeScalarView(scalars[index..<index + length])) == reference {
                        result.append(scalar)
                        index += length
                        continue scan
                    }
                }
            }
            result.append(scalars[index])
            index += 1
        }
        return String(result)
    }
}
