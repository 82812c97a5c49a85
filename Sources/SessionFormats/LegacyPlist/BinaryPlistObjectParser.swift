/// Parses single objects of a binary property list, bounds-checking every read against the object area.
struct BinaryPlistObjectParser {
    let bytes: [UInt8]
    let trailer: BinaryPlistTrailer
    let offsets: [Int]

    /// Objects must lie between the header and the offset table.
    private var limit: Int { trailer.tableOffset }

    /// Parses the object at `index` of the offset table.
    func parse(_ index: Int) throws(PlistDamage) -> PlistObject {
        let start = offsets[index]
        let marker = bytes[start]
        let info = Int(marker & 0x0F)
        var cursor = start + 1
        func need(_ count: Int) throws(PlistDamage) {
            guard count >= 0, cursor <= limit, count <= limit - cursor else {
                throw PlistDamage(
                    offset: start, reason: "object \(index) runs past the end of the object area (truncated or a wrong length)")
            }
        }
        switch marker >> 4 {
        case 0x0:
            switch info {
            case 0x0, 0xF: return .null
            case 0x8: return .bool(false)
            case 0x9: return .bool(true)
            default: throw badMarker(marker, start)
            }
        case 0x1:
            guard info <= 4 else { throw badMarker(marker, start) }
            let size = 1 << info
            try need(size)
            return integer(at: cursor, size: size)
        case 0x2:
            guard info == 2 || info == 3 else { throw badMarker(marker, start) }
            try need(1 << info)
            let raw = BinaryPlistTrailer.bigEndian(bytes, cursor, 1 << info)
            return .real(info == 2 ? Double(Float(bitPattern: UInt32(truncatingIfNeeded: raw))) : Double(bitPattern: raw))
        case 0x3:
            guard info == 3 else { throw badMarker(marker, start) }
            try need(8)
            return .date(Double(bitPattern: BinaryPlistTrailer.bigEndian(bytes, cursor, 8)))
        case 0x4, 0x5, 0x7:
            let count = try length(info, &cursor, start: start)
            try need(count)
            let slice = bytes[cursor..<cursor + count]
            switch marker >> 4 {
            case 0x4: return .data(slice)
            case 0x5:
                // Each byte one scalar (as Latin-1); ASCII, by far the most common, is the same as UTF-8.
                if slice.allSatisfy({ $0 < 0x80 }) { return .string(String(decoding: slice, as: UTF8.self)) }
                return .string(String(String.UnicodeScalarView(slice.map { Unicode.Scalar($0) })))
            default: return .string(String(decoding: slice, as: UTF8.self))
            }
        case 0x6:
            let count = try length(info, &cursor, start: start)
            guard count <= Int.max / 2 else { throw PlistDamage(offset: start, reason: "object \(index) has an impossible length") }
            try need(count * 2)
            var units: [UInt16] = []
            units.reserveCapacity(count)
            for unit in 0..<count {
                units.append(UInt16(bytes[cursor + 2 * unit]) << 8 | UInt16(bytes[cursor + 2 * unit + 1]))
            }
            return .string(String(decoding: units, as: UTF16.self))
        case 0x8:
            guard info < 8 else { throw badMarker(marker, start) }
            try need(info + 1)
            return .uid(BinaryPlistTrailer.bigEndian(bytes, cursor, info + 1))
        case 0xA, 0xC:
            let count = try length(info, &cursor, start: start)
            let refs = try references(count, at: &cursor, start: start, index: index)
            return marker >> 4 == 0xA ? .array(refs) : .set(refs)
        case 0xD:
            let count = try length(info, &cursor, start: start)
            guard count <= Int.max / 2 else { throw PlistDamage(offset: start, reason: "object \(index) has an impossible length") }
            let keys = try references(count, at: &cursor, start: start, index: index)
            let values = try references(count, at: &cursor, start: start, index: index)
            return .dictionary(keys: keys, values: values)
        default:
            throw badMarker(marker, start)
        }
    }

    private func badMarker(_ marker: UInt8, _ offset: Int) -> PlistDamage {
        let hex = String(marker, radix: 16)
        return PlistDamage(offset: offset, reason: "unknown object marker 0x\(hex.count == 1 ? "0" + hex : hex)")
    }

    /// An integer of 1, 2, 4 (unsigned), 8 (signed) or 16 bytes.
    private func integer(at offset: Int, size: Int) -> PlistObject {
        switch size {
        case 1, 2, 4: return .integer(Int64(BinaryPlistTrailer.bigEndian(bytes, offset, size)))
        case 8: return .integer(Int64(bitPattern: BinaryPlistTrailer.bigEndian(bytes, offset, 8)))
        default:
            let high = BinaryPlistTrailer.bigEndian(bytes, offset, 8)
            let low = BinaryPlistTrailer.bigEndian(bytes, offset + 8, 8)
            if (high == 0 && low >> 63 == 0) || (high == UInt64.max && low >> 63 == 1) {
                return .integer(Int64(bitPattern: low))
            }
            return .largeInteger(Array(bytes[offset..<offset + 16]))
        }
    }

    /// The element count of a data, string or container object: in the marker, or an integer after it.
    private func length(_ info: Int, _ cursor: inout Int, start: Int) throws(PlistDamage) -> Int {
        guard info == 0xF else { return info }
        guard cursor < limit, bytes[cursor] >> 4 == 0x1, bytes[cursor] & 0x0F <= 3 else {
            throw PlistDamage(offset: cursor, reason: "expected an integer length after the object marker")
        }
        let size = 1 << Int(bytes[cursor] & 0x0F)
        guard size <= limit - cursor - 1 else {
            throw PlistDamage(offset: start, reason: "object runs past the end of the object area (truncated)")
        }
        let value = BinaryPlistTrailer.bigEndian(bytes, cursor + 1, size)
        guard value <= UInt64(limit) else {
            throw PlistDamage(offset: cursor, reason: "length \(value) is larger than the file")
        }
        cursor += 1 + size
        return Int(value)
    }

    /// `count` object references, each checked to name an object of the table.
    private func references(_ count: Int, at cursor: inout Int, start: Int, index: Int) throws(PlistDamage) -> [Int] {
        let size = trailer.referenceSize
        guard count <= (limit - cursor) / size else {
            throw PlistDamage(offset: start, reason: "object \(index) runs past the end of the object area (truncated or a wrong length)")
        }
        var refs: [Int] = []
        refs.reserveCapacity(count)
        for _ in 0..<count {
            let ref = BinaryPlistTrailer.bigEndian(bytes, cursor, size)
            guard ref < UInt64(trailer.objectCount) else {
                throw PlistDamage(offset: cursor, reason: "reference to object \(ref), but there are only \(trailer.objectCount) objects")
            }
            refs.append(Int(ref))
            cursor += size
        }
        return refs
    }
}
