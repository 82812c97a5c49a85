import SessionModel

/// The UTC stamp that names a set-aside entry's directory, `Backups/<SessionID>/<stamp>/`:
/// ISO 8601 basic format with six fractional digits, e.g. `20261121T183426.123456Z`.
public enum AsideStamp {
    /// The stamp of a time (nil for the null time or a year outside 0000-9999).
    public static func format(_ time: Timestamp) -> String? {
        guard let iso = time.iso8601, iso.utf8.count == 27 else { return nil }
        return String(iso.filter { $0 != "-" && $0 != ":" })
    }

    /// The time a stamp names, or nil when the text is not a stamp.
    public static func parse(_ stamp: String) -> Timestamp? {
        let bytes = Array(stamp.utf8)
        guard bytes.count == 23, bytes[8] == UInt8(ascii: "T"), bytes[15] == UInt8(ascii: "."),
            bytes[22] == UInt8(ascii: "Z")
        else { return nil }
        let digits = bytes[0..<8] + bytes[9..<15] + bytes[16..<22]
        guard digits.allSatisfy({ (48...57).contains($0) }) else { return nil }
        func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
        let iso = "\(text(0..<4))-\(text(4..<6))-\(text(6..<8))T\(text(9..<11)):\(text(11..<13)):\(text(13..<15)).\(text(16..<22))Z"
        return Timestamp(iso8601: iso)
    }

    /// True when `name` is a stamp.
    public static func isStamp(_ name: String) -> Bool { parse(name) != nil }
}
