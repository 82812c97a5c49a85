/// A tab group's 128-bit identifier (`ios.proto.TabGroupId`); must be non-zero.
public struct TabGroupID: Sendable, Hashable, Codable {
    public var high: UInt64
    public var low: UInt64
    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// True when both words are zero (Chrome replaces such an id with a fresh one).
    public var isZero: Bool { high == 0 && low == 0 }

    /// 32 upper-case hex digits, high word first.
    public var hex: String {
        func word(_ value: UInt64) -> String {
            let text = String(value, radix: 16, uppercase: true)
            return String(repeating: "0", count: 16 - text.count) + text
        }
        return word(high) + word(low)
    }

    /// Parses a token as Chrome's `base::Token::FromString` does: exactly 32 upper-case hex digits
    /// (0-9, A-F), high word first; lower case, signs and anything else are refused.
    public init?(tokenString: String) {
        let digits = Array(tokenString.utf8)
        guard digits.count == 32 else { return nil }
        var words: [UInt64] = [0, 0]
        for (position, digit) in digits.enumerated() {
            let value: UInt8
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = digit - UInt8(ascii: "0")
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = digit - UInt8(ascii: "A") + 10
            default: return nil
            }
            words[position / 16] = words[position / 16] << 4 | UInt64(value)
        }
        self.init(high: words[0], low: words[1])
    }

    /// Parses 32 hex digits (high word first).
    public init?(hex: String) {
        guard hex.utf8.count == 32, hex.utf8.allSatisfy({ $0 < 128 }),
            let high = UInt64(hex.prefix(16), radix: 16), let low = UInt64(hex.suffix(16), radix: 16)
        else { return nil }
        self.init(high: high, low: low)
    }
}

/// A tab group of a window: a contiguous range of tabs (`ios.proto.TabGroupStorage`).
public struct TabGroup: Sendable, Hashable, Codable {
    public var start: Int32
    public var count: Int32
    public var title: String
    public var color: TabGroupColor
    public var collapsed: Bool
    /// The group's id; nil when the stored message had none.
    public var id: TabGroupID?
    /// Unknown fields of the group message, kept as raw bytes.
    public var unknownFields: [UInt8]

    public init(
        start: Int32, count: Int32, title: String = "", color: TabGroupColor = .grey,
        collapsed: Bool = false, id: TabGroupID?, unknownFields: [UInt8] = []
    ) {
        self.start = start
        self.count = count
        self.title = title
        self.color = color
        self.collapsed = collapsed
        self.id = id
        self.unknownFields = unknownFields
    }
}
