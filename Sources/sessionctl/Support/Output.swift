import Foundation

/// Buffered standard output and one-line errors on standard error.
enum Output {
    nonisolated(unsafe) private static var buffer: [UInt8] = []

    /// Appends a line to standard output (flushed in large chunks and at exit).
    static func line(_ text: String = "") {
        buffer.append(contentsOf: text.utf8)
        buffer.append(10)
        if buffer.count > 1 << 16 { flush() }
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

    /// `sessionctl: <message>` on standard error.
    static func error(_ message: String) {
        flush()
        let line = "sessionctl: " + message.replacingOccurrences(of: "\n", with: " ") + "\n"
        FileHandle.standardError.write(Data(line.utf8))
    }

    /// True when standard output is a terminal and NO_COLOR is not set.
    static var useColor: Bool {
        isatty(1) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true
    }
}
