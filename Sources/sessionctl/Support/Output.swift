import Foundation
import SessionFormats

/// Buffered standard output and one-line errors on standard error.
enum Output {
    nonisolated(unsafe) private static var buffer: [UInt8] = []

    /// Appends a line of text to standard output (flushed in large chunks and at exit), its
    /// control characters and bidirectional controls shown escaped (`\n`, `\x1b`, `\u{202e}`): a
    /// name or title read from a profile can neither forge output lines, nor send a terminal
    /// escape sequence, nor reorder what a terminal shows. With `style` (an SGR parameter such as
    /// `31`), the escaped line is shown in that colour: the only escape sequence sessionctl writes.
    static func line(_ text: String = "", style: String? = nil) {
        if let style { buffer.append(contentsOf: "\u{1B}[\(style)m".utf8) }
        if text.unicodeScalars.contains(where: needsEscape) {
            buffer.append(contentsOf: escapingControls(text).utf8)
        } else {
            buffer.append(contentsOf: text.utf8)
        }
        if style != nil { buffer.append(contentsOf: "\u{1B}[0m".utf8) }
        buffer.append(10)
        if buffer.count > 1 << 16 { flush() }
    }

    /// Appends a JSON document (whose serializer already escapes every control character).
    static func document(_ value: JSONValue) {
        line(bytes: value.serializedBytes())
    }

    /// C0 controls, DEL and C1 controls (a terminal takes 0x9b for an escape sequence).
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// The invisible marks and overrides that change the order text is shown in (U+061C,
    /// U+200E-U+200F, U+202A-U+202E, U+2066-U+2069): a right-to-left override can make a URL read
    /// as another.
    private static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// What `line` shows escaped.
    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool { isControl(scalar) || isBidiControl(scalar) }

    /// `text` with each control character written out: `\n`, `\r`, `\t`, else `\xHH` / `\u{HH}`;
    /// bidirectional controls as `\u{HHHH}`. Nothing of the text reaches a terminal as an escape
    /// sequence, colour sequences included.
    static func escapingControls(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x80 && isControl(scalar): result += "\\x" + hex(scalar.value)
            case _ where needsEscape(scalar): result += "\\u{" + hex(scalar.value) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return digits.count < 2 ? "0" + digits : digits
    }

    /// Appends bytes to standard output; a large piece is written from where it lies, not copied.
    static func bytes(_ bytes: [UInt8]) {
        guard bytes.count > 1 << 16 else {
            buffer.append(contentsOf: bytes)
            if buffer.count > 1 << 16 { flush() }
            return
        }
        flush()
        writeAll(bytes)
    }

    /// Appends bytes and a newline to standard output (for large documents built as bytes).
    static func line(bytes: [UInt8]) {
        guard bytes.count > 1 << 16 else {
            buffer.append(contentsOf: bytes)
            buffer.append(10)
            if buffer.count > 1 << 16 { flush() }
            return
        }
        // A large document is written from where it lies rather than copied into the buffer.
        flush()
        writeAll(bytes)
        buffer.append(10)
    }

    /// Writes the buffered output.
    static func flush() {
        guard !buffer.isEmpty else { return }
        writeAll(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes bytes to standard output, as far as it takes them.
    private static func writeAll(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            var offset = 0
            while offset < raw.count {
                let written = Foundation.write(1, base + offset, raw.count - offset)
                if written <= 0 { break }
                offset += written
            }
        }
    }

    /// Says on standard error that the profile was found one level down in `path` (an unpacked
    /// bundle), when it was.
    static func profileFoundInside(_ inside: String?, of path: String) {
        if let inside { error("note: reading the profile \(inside) inside \(path)") }
    }

    /// `sessionctl: <message>` on standard error.
    static func error(_ message: String) {
        flush()
        let line = "sessionctl: " + escapingControls(message) + "\n"
        FileHandle.standardError.write(Data(line.utf8))
    }

    /// True when standard output is a terminal and NO_COLOR is not set.
    static var useColor: Bool {
        isatty(1) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true
    }
}
