/// Part of a page being written as UTF-8 bytes: markup appended as it is, and text from a
/// profile escaped by `HTML.escape`, the one escaping function.
///
/// The rows of a report are most of its bytes (hundreds of megabytes for thousands of tabs with
/// their histories): bytes appended to one array cost less than strings built and joined, and are
/// written to the file as they are.
struct HTMLBytes {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// Appends markup written by the report itself (never text from a profile).
    mutating func markup(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// Appends text from a profile, escaped.
    mutating func text(_ text: String) {
        // Most titles and URLs need nothing: their bytes are appended as they are.
        if HTML.needsEscaping(text) {
            bytes.append(contentsOf: HTML.escape(text).utf8)
        } else {
            bytes.append(contentsOf: text.utf8)
        }
    }

    /// Appends a number in decimal.
    mutating func number(_ value: some BinaryInteger) {
        guard value != 0 else {
            bytes.append(UInt8(ascii: "0"))
            return
        }
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        let start = bytes.count
        // Least significant digit first, then put in order.
        while magnitude > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10))
            magnitude /= 10
        }
        bytes[start...].reverse()
    }
}
