/// The first bad byte found by the wire scanner.
public struct WireDamage: Error, Sendable, Hashable {
    /// Byte offset of the first byte that cannot be part of a valid message.
    public var offset: Int
    /// What is wrong there, for a person.
    public var reason: String
}

/// An enum value outside the range Chrome knows, found while scanning.
public struct WireEnumOutOfRange: Sendable, Hashable {
    public var offset: Int
    public var message: String
    public var field: Int
    public var value: Int64
}

/// The result of scanning a message's bytes.
public struct WireScanResult: Sendable {
    /// Length of the longest prefix made only of complete, valid top-level fields.
    public var validPrefix: Int
    /// The first damage, or nil when the whole buffer is a valid message.
    public var damage: WireDamage?
    /// Enum values outside their ranges, in file order.
    public var enumsOutOfRange: [WireEnumOutOfRange]
}

/// A tolerant, schema-aware protobuf wire scanner.
///
/// It never throws and never traps: it walks the bytes, descends into the message fields it
/// knows, and reports the offset of the first byte that cannot belong to a valid message plus the
/// length of the prefix of complete top-level fields before it (what can be salvaged).
struct WireScanner {
    private let bytes: UnsafeRawBufferPointer
    private var enums: [WireEnumOutOfRange] = []
    private static let maxDepth = 64

    private init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    /// Scans `data` as a message of `schema`.
    static func scan(_ data: [UInt8], as schema: WireSchema) -> WireScanResult {
        data.withUnsafeBytes { raw in
            var scanner = WireScanner(bytes: raw)
            var lastGood = 0
            var offset = 0
            var damage: WireDamage?
            while offset < raw.count {
                switch scanner.field(at: offset, end: raw.count, schema: schema, depth: 0) {
                case .success(let next):
                    offset = next
                    lastGood = next
                case .failure(let bad):
                    damage = bad
                    offset = raw.count
                }
            }
            return WireScanResult(validPrefix: lastGood, damage: damage, enumsOutOfRange: scanner.enums)
        }
    }

    private func varint(at start: Int, end: Int) -> Result<(UInt64, Int), WireDamage> {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        var offset = start
        while offset < end {
            let byte = bytes[offset]
            value |= UInt64(byte & 0x7f) << shift
            offset += 1
            if byte & 0x80 == 0 { return .success((value, offset)) }
            shift += 7
            if shift > 63 {
                return .failure(WireDamage(offset: start, reason: "varint longer than 10 bytes"))
            }
        }
        return .failure(WireDamage(offset: end, reason: "truncated varint"))
    }

    private mutating func field(at start: Int, end: Int, schema: WireSchema, depth: Int) -> Result<Int, WireDamage> {
        let tag: UInt64
        var offset: Int
        switch varint(at: start, end: end) {
        case .failure(let damage): return .failure(damage)
        case .success(let (value, next)): (tag, offset) = (value, next)
        }
        // A tag is at most five bytes, the fifth at most 15 (32 bits), as protobuf decoders require.
        guard offset - start <= 5, offset - start < 5 || bytes[start + 4] <= 15 else {
            return .failure(WireDamage(offset: start, reason: "field tag longer than 32 bits"))
        }
        let number = tag >> 3
        let wireType = tag & 7
        guard number > 0, number <= 536_870_911 else {
            return .failure(WireDamage(offset: start, reason: "field number \(number) is invalid"))
        }
        let kind = schema.fields[Int(number)]
        switch wireType {
        case 0:
            switch kind {
            case nil, .varint?, .bool?, .enumeration?: break
            default:
                return .failure(
                    WireDamage(offset: start, reason: "\(schema.name) field \(number) has wire type 0, expected length-delimited"))
            }
            switch varint(at: offset, end: end) {
            case .failure(let damage): return .failure(damage)
            case .success(let (value, next)):
                if case .enumeration(let range)? = kind {
                    let signed = Int64(Int32(truncatingIfNeeded: value))
                    if !range.contains(signed) {
                        enums.append(WireEnumOutOfRange(offset: offset, message: schema.name, field: Int(number), value: signed))
                    }
                }
                return .success(next)
            }
        case 1, 5:
            guard kind == nil else {
                return .failure(WireDamage(offset: start, reason: "\(schema.name) field \(number) has fixed-width wire type \(wireType)"))
            }
            let size = wireType == 1 ? 8 : 4
            guard end - offset >= size else { return .failure(WireDamage(offset: end, reason: "truncated fixed-width field")) }
            return .success(offset + size)
        case 2:
            switch kind {
            case nil, .string?, .bytes?, .message?: break
            default:
                return .failure(WireDamage(offset: start, reason: "\(schema.name) field \(number) is length-delimited, expected a varint"))
            }
            let length: UInt64
            switch varint(at: offset, end: end) {
            case .failure(let damage): return .failure(damage)
            case .success(let (value, next)): (length, offset) = (value, next)
            }
            guard length <= UInt64(end - offset) else {
                return .failure(WireDamage(offset: offset, reason: "length \(length) runs past the end (\(end - offset) bytes left)"))
            }
            let fieldEnd = offset + Int(length)
            switch kind {
            case .string?:
                if let bad = firstInvalidUTF8(from: offset, to: fieldEnd) {
                    return .failure(WireDamage(offset: bad, reason: "\(schema.name) field \(number) is not valid UTF-8"))
                }
            case .message(let nested)?:
                guard depth < WireScanner.maxDepth else {
                    return .failure(WireDamage(offset: offset, reason: "messages nested too deeply"))
                }
                var inner = offset
                while inner < fieldEnd {
                    switch field(at: inner, end: fieldEnd, schema: nested, depth: depth + 1) {
                    case .failure(let damage): return .failure(damage)
                    case .success(let next): inner = next
                    }
                }
            default: break
            }
            return .success(fieldEnd)
        default:
            return .failure(WireDamage(offset: start, reason: "wire type \(wireType) is not valid here"))
        }
    }

    /// Offset of the first byte of an invalid UTF-8 sequence in the range, or nil.
    private func firstInvalidUTF8(from start: Int, to end: Int) -> Int? {
        var offset = start
        while offset < end {
            let lead = bytes[offset]
            if lead < 0x80 {
                offset += 1
                continue
            }
            let count: Int
            let minimum: UInt32
            switch lead {
            case 0xC2...0xDF: (count, minimum) = (1, 0x80)
            case 0xE0...0xEF: (count, minimum) = (2, 0x800)
            case 0xF0...0xF4: (count, minimum) = (3, 0x10000)
            default: return offset
            }
            guard end - offset > count else { return offset }
            var scalar = UInt32(lead) & (0x3F >> count)
            for index in 1...count {
                let next = bytes[offset + index]
                guard next & 0xC0 == 0x80 else { return offset }
                scalar = scalar << 6 | UInt32(next & 0x3F)
            }
            if scalar < minimum || scalar > 0x10FFFF || (0xD800...0xDFFF).contains(scalar) { return offset }
            offset += count + 1
        }
        return nil
    }
}
