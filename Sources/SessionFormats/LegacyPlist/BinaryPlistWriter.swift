/// Writes binary property lists (`bplist00`) in the layout Apple's and Python's writers use:
/// objects in pre-order from the top object, equal scalars stored once, dictionary keys in
/// UTF-8 byte order, and the smallest integer sizes for references and offsets.
public enum BinaryPlistWriter {
    /// The bytes of `value` as a binary property list.
    public static func encode(_ value: PlistValue) -> [UInt8] {
        var table = ObjectTable()
        _ = table.add(value)
        return serialize(table.objects)
    }

    /// Lays out flattened objects: header, objects, offset table, trailer.
    static func serialize(_ objects: [PlistObject]) -> [UInt8] {
        let referenceSize = byteCount(UInt64(max(objects.count - 1, 0)))
        var out: [UInt8] = Array("bplist00".utf8)
        var offsets: [Int] = []
        offsets.reserveCapacity(objects.count)
        for object in objects {
            offsets.append(out.count)
            append(object, referenceSize: referenceSize, to: &out)
        }
        let tableOffset = out.count
        let offsetSize = byteCount(UInt64(tableOffset))
        for offset in offsets { appendBigEndian(UInt64(offset), size: offsetSize, to: &out) }
        out += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
        appendBigEndian(UInt64(objects.count), size: 8, to: &out)
        appendBigEndian(0, size: 8, to: &out)
        appendBigEndian(UInt64(tableOffset), size: 8, to: &out)
        return out
    }

    /// Flattens a value tree into objects, pre-order, storing each distinct scalar once.
    struct ObjectTable {
        var objects: [PlistObject] = []
        var scalars: [PlistValue: Int] = [:]

        mutating func add(_ value: PlistValue) -> Int {
            switch value {
            case .array(let elements), .set(let elements):
                let index = reserve()
                let refs = elements.map { add($0) }
                if case .set = value { objects[index] = .set(refs) } else { objects[index] = .array(refs) }
                return index
            case .dictionary(let members):
                let index = reserve()
                let sorted = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
                let keys = sorted.map { add(.string($0.key)) }
                let values = sorted.map { add($0.value) }
                objects[index] = .dictionary(keys: keys, values: values)
                return index
            default:
                if let index = scalars[value] { return index }
                let index = objects.count
                objects.append(scalar(value))
                scalars[value] = index
                return index
            }
        }

        private mutating func reserve() -> Int {
            objects.append(.unread)
            return objects.count - 1
        }

        private func scalar(_ value: PlistValue) -> PlistObject {
            switch value {
            case .bool(let flag): return .bool(flag)
            case .integer(let number): return .integer(number)
            case .largeInteger(let raw): return .largeInteger(raw)
            case .real(let number): return .real(number)
            case .date(let seconds): return .date(seconds)
            case .data(let bytes): return .data(bytes[...])
            case .string(let text): return .string(text)
            case .uid(let uid): return .uid(uid)
            case .null, .array, .set, .dictionary: return .null
            }
        }
    }

    private static func append(_ object: PlistObject, referenceSize: Int, to out: inout [UInt8]) {
        switch object {
        case .null, .unread: out.append(0x00)
        case .bool(let flag): out.append(flag ? 0x09 : 0x08)
        case .integer(let number): appendInteger(number, to: &out)
        case .largeInteger(let raw):
            out.append(0x14)
            out += raw.count == 16 ? raw : [UInt8](repeating: 0, count: 16)
        case .real(let number):
            out.append(0x23)
            appendBigEndian(number.bitPattern, size: 8, to: &out)
        case .date(let seconds):
            out.append(0x33)
            appendBigEndian(seconds.bitPattern, size: 8, to: &out)
        case .data(let bytes):
            appendHeader(0x4, bytes.count, to: &out)
            out += bytes
        case .string(let text):
            if text.unicodeScalars.allSatisfy({ $0.isASCII }) {
                appendHeader(0x5, text.utf8.count, to: &out)
                out += text.utf8
            } else {
                let units = Array(text.utf16)
                appendHeader(0x6, units.count, to: &out)
                for unit in units { out += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
            }
        case .uid(let uid):
            let size = uid < 1 << 8 ? 1 : uid < 1 << 16 ? 2 : uid < 1 << 32 ? 4 : 8
            out.append(0x80 | UInt8(size - 1))
            appendBigEndian(uid, size: size, to: &out)
        case .array(let refs), .set(let refs):
            if case .set = object { appendHeader(0xC, refs.count, to: &out) } else { appendHeader(0xA, refs.count, to: &out) }
            for ref in refs { appendBigEndian(UInt64(ref), size: referenceSize, to: &out) }
        case .dictionary(let keys, let values):
            appendHeader(0xD, keys.count, to: &out)
            for ref in keys + values { appendBigEndian(UInt64(ref), size: referenceSize, to: &out) }
        }
    }

    /// A marker with the count in its low nibble, or 0xF and an integer object after it.
    private static func appendHeader(_ kind: UInt8, _ count: Int, to out: inout [UInt8]) {
        if count < 15 {
            out.append(kind << 4 | UInt8(count))
        } else {
            out.append(kind << 4 | 0x0F)
            appendInteger(Int64(count), to: &out)
        }
    }

    /// An integer in 1, 2 or 4 unsigned bytes when it fits, else 8 signed bytes.
    private static func appendInteger(_ number: Int64, to out: inout [UInt8]) {
        if number < 0 || number >= 1 << 32 {
            out.append(0x13)
            appendBigEndian(UInt64(bitPattern: number), size: 8, to: &out)
        } else {
            let size = byteCount(UInt64(number))
            out.append(0x10 | UInt8(size == 1 ? 0 : size == 2 ? 1 : 2))
            appendBigEndian(UInt64(number), size: size, to: &out)
        }
    }

    /// 1, 2, 4 or 8: the fewest bytes of those that hold `value`.
    static func byteCount(_ value: UInt64) -> Int {
        value < 1 << 8 ? 1 : value < 1 << 16 ? 2 : value < 1 << 32 ? 4 : 8
    }

    private static func appendBigEndian(_ value: UInt64, size: Int, to out: inout [UInt8]) {
        for shift in stride(from: (size - 1) * 8, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }
}
