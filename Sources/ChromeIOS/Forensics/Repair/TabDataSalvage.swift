import SessionForensics
import SessionFormats
import SessionModel

/// Reads as much of a damaged data.pb as can be read.
///
/// Every navigation item lies inside one top-level field (`navigation`), so the complete
/// top-level fields before the damage often hold no item at all. When the damage lies inside the
/// navigation field, its complete items before the damage are kept too (with the last committed
/// index when it was written before them, as Chrome writes it).
enum TabDataSalvage {
    /// The history read from `bytes`, and the offset of the first bad byte; nil when the file is intact.
    static func salvage(_ bytes: [UInt8]) -> (history: TabHistory, damage: Int)? {
        let top = ChromeProtoCodec.salvageTabData(bytes)
        guard let damage = top.damage else { return nil }
        guard top.value.items.isEmpty, let navigation = navigationItems(bytes, at: top.validPrefix) else {
            return (top.value, damage.offset)
        }
        let prefix = Array(bytes[0..<top.validPrefix])
        // Keep the longest run of leading items that decodes (a later one may hold bad UTF-8).
        var count = navigation.items.count
        while count > 0 {
            var inner = navigation.lastCommitted.map { Array(bytes[$0]) } ?? []
            for range in navigation.items[..<count] { inner += bytes[range] }
            let candidate = prefix + [0x22] + varint(UInt64(inner.count)) + inner
            if let history = try? ChromeProtoCodec.decodeTabData(candidate) { return (history, damage.offset) }
            count -= 1
        }
        return (top.value, damage.offset)
    }

    /// The byte ranges of the complete fields of a navigation field starting at `offset`, cut or not.
    private static func navigationItems(_ bytes: [UInt8], at offset: Int) -> (lastCommitted: Range<Int>?, items: [Range<Int>])? {
        guard offset < bytes.count, bytes[offset] == 0x22, let (length, start) = WireField.varint(bytes, at: offset + 1, end: bytes.count)
        else { return nil }
        let end = start + Int(min(length, UInt64(bytes.count - start)))
        var lastCommitted: Range<Int>?
        var items: [Range<Int>] = []
        for field in WireField.fields(of: bytes, in: start..<end) {
            if field.number == 1, field.wireType == 0, items.isEmpty { lastCommitted = field.start..<field.end }
            if field.number == 2, field.wireType == 2 { items.append(field.start..<field.end) }
        }
        return items.isEmpty ? nil : (lastCommitted, items)
    }

    private static func varint(_ value: UInt64) -> [UInt8] {
        var value = value
        var out: [UInt8] = []
        while value >= 0x80 {
            out.append(UInt8(value & 0x7f) | 0x80)
            value >>= 7
        }
        out.append(UInt8(value))
        return out
    }
}
