import Foundation
import SessionFormats

/// Buffered standard output and one-line errors on standard error.
enum Output {
    nonisolated(unsafe) private static var buffer: [UInt8] = []

    /// Appends a line of text to standard output (flushed in large chunks and at exit), its
    /// control characters shown escaped (`\n`, `\x1b`): a name or title read from a profile can
    /// neither forge output lines nor send a terminal escape sequence.
    static func line(_ text: String = "") {
        if text.unicodeScalars.contains(where: isControl) {
            buffer.append(contentsOf: escapingControls(text).utf8)
        } else {
            buffer.append(contentsOf: text.utf8)
        }
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

    /// `text` with each control character written out: `\n`, `\r`, `\t`, else `\xHH` / `\u{HH}`.
    /// A colour sequence (ESC `[` digits and `;` `m`, what `--color` output is made of) is kept: it
    /// can change a colour, never move the cursor, clear the screen or start a line.
    static func escapingControls(_ text: String) -> String {
        var result = ""
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\u{1b}", let end = colourSequenceEnd(scalars, from: index) {
                result.unicodeScalars.append(contentsOf: scalars[index...end])
                index = end + 1
                continue
            }
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x80 && isControl(scalar): result += "\\x" + hex(scalar.value)
            case _ where isControl(scalar): result += "\\u{" + hex(scalar.value) + "}"
            default: result.unicodeScalars.append(scalar)
            }
            index += 1
        }
        return result
    }

    /// The index of the `m` ending a colour sequence that starts with the ESC at `start`, if it is one.
    private static func colourSequenceEnd(_ scalars: [Unicode.Scalar], from start: Int) -> Int? {
        guard start + 2 < scalars.count, scalars[start + 1] == "[" else { return nil }
        var index = start + 2
        while index < scalars.count, ("0"..."9").contains(scalars[index]) || scalars[index] == ";" { index += 1 }
        return index < scalars.count && scalars[index] == "m" ? index : nil
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
