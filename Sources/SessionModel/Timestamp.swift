/// A point in time as Chrome stores it: microseconds since 1601-01-01T00:00:00Z (the Windows epoch).
///
/// Zero means "no time" (Chrome writes an empty Timestamp message for it). Conversion to and
/// from ISO 8601 is exact integer arithmetic, never through floating point.
public struct Timestamp: Sendable, Hashable, Comparable, Codable {
    /// Microseconds since the Windows epoch; 0 is the null time.
    public var microseconds: Int64

    /// Microseconds between 1601-01-01 and 1970-01-01.
    public static let unixEpochOffset: Int64 = 11_644_473_600_000_000

    /// The null time.
    public static let null = Timestamp(microseconds: 0)

    /// Creates a time from Windows-epoch microseconds.
    public init(microseconds: Int64) { self.microseconds = microseconds }

    /// Creates a time from Unix-epoch microseconds.
    public init(unixMicroseconds: Int64) {
        self.microseconds = unixMicroseconds &+ Timestamp.unixEpochOffset
    }

    /// True when this is the null (zero) time.
    public var isNull: Bool { microseconds == 0 }

    /// Microseconds since 1970-01-01T00:00:00Z.
    public var unixMicroseconds: Int64 { microseconds &- Timestamp.unixEpochOffset }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.microseconds < rhs.microseconds }

    /// ISO 8601 UTC with exactly six fractional digits, e.g. `2026-11-21T18:34:26.123456Z`; nil for the null time.
    public var iso8601: String? {
        isNull ? nil : Timestamp.format(microseconds)
    }

    /// Formats Windows-epoch microseconds as ISO 8601 (years outside 0000-9999 are written with a sign).
    static func format(_ value: Int64) -> String {
        let perDay: Int64 = 86_400_000_000
        var days = value / perDay
        var rest = value % perDay
        if rest < 0 {
            rest += perDay
            days -= 1
        }
        // Days since 1601-01-01 to days since 1970-01-01: 134774 days.
        let (year, month, day) = CivilDate.fromDays(days - 134_774)
        let micros = rest % 1_000_000
        let seconds = rest / 1_000_000
        if (0...9999).contains(year) {
            // The common case, written digit by digit into the string's own storage.
            return String(unsafeUninitializedCapacity: 27) { buffer in
                var end = 0
                func field(_ value: Int64, _ width: Int, _ separator: UInt8) {
                    var value = value
                    var position = end + width - 1
                    while position >= end {
                        buffer[position] = UInt8(truncatingIfNeeded: 48 + value % 10)
                        value /= 10
                        position -= 1
                    }
                    buffer[end + width] = separator
                    end += width + 1
                }
                field(year, 4, UInt8(ascii: "-"))
                field(month, 2, UInt8(ascii: "-"))
                field(day, 2, UInt8(ascii: "T"))
                field(seconds / 3600, 2, UInt8(ascii: ":"))
                field(seconds / 60 % 60, 2, UInt8(ascii: ":"))
                field(seconds % 60, 2, UInt8(ascii: "."))
                field(micros, 6, UInt8(ascii: "Z"))
                return end
            }
        }
        let yearText = (year < 0 ? "-" : "+") + pad(abs(year), 6)
        return "\(yearText)-\(pad(month, 2))-\(pad(day, 2))T\(pad(seconds / 3600, 2)):"
            + "\(pad(seconds / 60 % 60, 2)):\(pad(seconds % 60, 2)).\(pad(micros, 6))Z"
    }

    /// Parses ISO 8601 UTC (`YYYY-MM-DDTHH:MM:SS[.ffffff]Z`, up to six fractional digits, or a `+00:00` offset).
    public init?(iso8601 text: String) {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ count: Int) -> Int64? {
            guard index + count <= bytes.count else { return nil }
            var value: Int64 = 0
            for byte in bytes[index..<index + count] {
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int64(byte - 48)
            }
            index += count
            return value
        }
        func expect(_ char: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == char else { return false }
            index += 1
            return true
        }
        var sign: Int64 = 1
        var yearDigits = 4
        if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            yearDigits = 6
        }
        guard let year = number(yearDigits), expect(UInt8(ascii: "-")), let month = number(2),
            expect(UInt8(ascii: "-")), let day = number(2), expect(UInt8(ascii: "T")),
            let hour = number(2), expect(UInt8(ascii: ":")), let minute = number(2),
            expect(UInt8(ascii: ":")), let second = number(2)
        else { return nil }
        var micros: Int64 = 0
        if expect(UInt8(ascii: ".")) {
            var digits = 0
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                guard digits < 6 else { return nil }
                micros = micros * 10 + Int64(bytes[index] - 48)
                digits += 1
                index += 1
            }
            guard digits > 0 else { return nil }
            for _ in digits..<6 { micros *= 10 }
        }
        if !expect(UInt8(ascii: "Z")) {
            guard expect(UInt8(ascii: "+")), number(2) == 0, expect(UInt8(ascii: ":")), number(2) == 0 else { return nil }
        }
        guard index == bytes.count, (1...12).contains(month), day >= 1,
            day <= CivilDate.daysInMonth(year: sign * year, month: month),
            hour < 24, minute < 60, second < 60
        else { return nil }
        var days = CivilDate.toDays(year: sign * year, month: month, day: day) + 134_774
        var timeOfDay = ((hour * 60 + minute) * 60 + second) * 1_000_000 + micros
        if days < 0 {
            // Keep the partial product inside Int64 for the earliest representable times.
            days += 1
            timeOfDay -= 86_400_000_000
        }
        let (total, overflow) = days.multipliedReportingOverflow(by: 86_400_000_000)
        guard !overflow else { return nil }
        let (value, overflow2) = total.addingReportingOverflow(timeOfDay)
        guard !overflow2 else { return nil }
        self.microseconds = value
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}

/// Proleptic Gregorian calendar arithmetic (Howard Hinnant's days-from-civil algorithms).
enum CivilDate {
    /// Converts days since 1970-01-01 to a (year, month, day) triple.
    static func fromDays(_ days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Converts a (year, month, day) triple to days since 1970-01-01.
    static func toDays(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// Number of days in a month of the proleptic Gregorian calendar.
    static func daysInMonth(year: Int64, month: Int64) -> Int64 {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
