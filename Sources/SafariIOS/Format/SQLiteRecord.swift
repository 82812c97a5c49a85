/// One row as SQLite stores it in a table b-tree's leaf cell: a header of serial types, then
/// the values (sqlite.org/fileformat2.html, "Record Format"). Read by hand because SQLite has no
/// interface to the rows of pages it no longer uses (superseded WAL frames, freed pages) or of a
/// file it refuses: the salvage of `SQLitePageScanner` reads them so.
struct SQLiteRecord: Sendable, Equatable {
    var rowid: Int64
    var values: [SQLiteDatabase.Value]
    /// Whether some of the payload was on overflow pages that could not be followed (its last
    /// values then end early or are missing).
    var truncated: Bool

    /// Reads a varint (1 to 9 bytes, big-endian, 7 bits a byte but all 8 in the ninth) at
    /// `offset` of `bytes`; nil when cut short.
    static func varint(_ bytes: ArraySlice<UInt8>, at offset: Int) -> (value: Int64, length: Int)? {
        var value: UInt64 = 0
        for index in 0..<9 {
            let position = offset + index
            guard position < bytes.endIndex else { return nil }
            let byte = bytes[position]
            if index == 8 { return (Int64(bitPattern: value << 8 | UInt64(byte)), 9) }
            value = value << 7 | UInt64(byte & 0x7F)
            if byte & 0x80 == 0 { return (Int64(bitPattern: value), index + 1) }
        }
        return nil
    }

    /// Decodes the values of a record's payload; nil when its header does not hold together.
    static func values(_ payload: ArraySlice<UInt8>, truncated: Bool) -> [SQLiteDatabase.Value]? {
        guard let (headerSize, first) = varint(payload, at: payload.startIndex), headerSize >= 1,
            headerSize <= Int64(payload.count), headerSize < 1 << 16
        else { return nil }
        var types: [Int64] = []
        var position = payload.startIndex + first
        let headerEnd = payload.startIndex + Int(headerSize)
        while position < headerEnd {
            guard let (type, length) = varint(payload, at: position), type >= 0, type != 10, type != 11 else { return nil }
            types.append(type)
            position += length
        }
        guard position == headerEnd else { return nil }
        var values: [SQLiteDatabase.Value] = []
        var offset = headerEnd
        for type in types {
            let size: Int =
                switch type {
                case 0, 8, 9: 0
                case 1, 2, 3, 4: Int(type)
                case 5: 6
                case 6, 7: 8
                default: Int((type - 12) / 2)
                }
            guard offset + size <= payload.endIndex else {
                // What the payload holds of a value cut by an overflow that was not followed.
                if truncated { break }
                return nil
            }
            let field = payload[offset..<offset + size]
            offset += size
            switch type {
            case 0: values.append(.null)
            case 8: values.append(.integer(0))
            case 9: values.append(.integer(1))
            case 1...6:
                var value = Int64(Int8(bitPattern: field.first ?? 0))
                for byte in field.dropFirst() { value = value << 8 | Int64(byte) }
                values.append(.integer(value))
            case 7:
                values.append(.real(Double(bitPattern: field.reduce(UInt64(0)) { $0 << 8 | UInt64($1) })))
            default:
                values.append(type % 2 == 0 ? .blob(Array(field)) : .text(String(decoding: field, as: UTF8.self)))
            }
        }
        return values
    }
}
