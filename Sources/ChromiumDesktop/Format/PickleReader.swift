import Archive
import FileSystemKit
import SessionFormats
import SessionModel

/// Reads a `base::Pickle` as Chromium's reader does (docs/chromium-desktop-format.md, "Pickles"):
/// a uint32 payload size, then fields each starting on a 4-byte boundary; every read past the
/// end fails, and a failed read fails the ones after it.
///
/// Hand-written: the pickle is Chromium's own serialization, which no kept library reads.
///
/// A reader reads where its bytes are in memory (`FileBytes.unsafeBaseAddress`) and lives while
/// they are held elsewhere (a decoding's caller holds them, a navigation keeps its own reference
/// beside the reader's position): reading a field counts no reference.
struct PickleReader {
    /// Where the bytes the pickle is in start.
    private let base: UnsafeRawPointer
    /// Where the next field starts.
    private(set) var position: Int
    /// Where the pickle ends.
    let end: Int

    /// A reader over `bytes[range]`, or nil when the header does not check out: the payload size
    /// must leave a header of at least 4 bytes, a multiple of 4, inside the contents.
    init?(_ bytes: borrowing FileBytes, _ range: Range<Int>) {
        guard range.count >= 4, range.lowerBound >= 0, range.upperBound <= bytes.count else { return nil }
        let start = range.lowerBound
        let payload = bytes.uint32(at: start)
        guard Int(payload) <= range.count - 4 else { return nil }
        let header = range.count - Int(payload)
        guard header >= 4, header % 4 == 0 else { return nil }
        self.base = bytes.unsafeBaseAddress
        self.position = start + header
        self.end = range.upperBound
    }

    /// A reader of `bytes` from `position` to `end`, as one left by another reader (`position`, `end`).
    init(resuming bytes: borrowing FileBytes, at position: Int, end: Int) {
        precondition(position >= 0 && end <= bytes.count, "a reader outside its bytes")
        self.base = bytes.unsafeBaseAddress
        self.position = position
        self.end = end
    }

    /// A reader over a pickle cut short (the last record of a file cut in the middle): its
    /// header's size is not checked, and what the bytes hold is read up to where they end.
    init?(cut bytes: borrowing FileBytes, _ range: Range<Int>) {
        guard range.count >= 4, range.lowerBound >= 0, range.upperBound <= bytes.count else { return nil }
        self.base = bytes.unsafeBaseAddress
        self.position = range.lowerBound + 4
        self.end = range.upperBound
    }

    /// Whether every byte of the payload was read.
    var atEnd: Bool { position >= end }

    /// Takes `count` bytes (advancing past their padding), or nil when fewer are left.
    private mutating func take(_ count: Int) -> Range<Int>? {
        guard count >= 0, end - position >= count else {
            position = end
            return nil
        }
        let range = position..<position + count
        let aligned = (count + 3) & ~3
        position = end - position < aligned ? end : position + aligned
        return range
    }

    /// Passes over `count` bytes (and their padding) without reading them; false when fewer are left.
    mutating func skip(_ count: Int) -> Bool { take(count) != nil }

    mutating func uint32() -> UInt32? {
        guard let range = take(4) else { return nil }
        return UInt32(littleEndian: base.loadUnaligned(fromByteOffset: range.lowerBound, as: UInt32.self))
    }

    mutating func int32() -> Int32? { uint32().map { Int32(bitPattern: $0) } }

    mutating func uint64() -> UInt64? {
        guard let range = take(8) else { return nil }
        return UInt64(littleEndian: base.loadUnaligned(fromByteOffset: range.lowerBound, as: UInt64.self))
    }

    mutating func int64() -> Int64? { uint64().map { Int64(bitPattern: $0) } }

    /// A bool: an int32 written as 0 or 1; its first byte decides, as the newest reader reads it.
    mutating func bool() -> Bool? {
        guard let range = take(4) else { return nil }
        return base.load(fromByteOffset: range.lowerBound, as: UInt8.self) != 0
    }

    /// Where a string's bytes are, without decoding them: an int32 byte count (a negative one
    /// fails), the bytes, padding.
    mutating func data() -> Range<Int>? {
        guard let count = int32(), count >= 0 else { return nil }
        return take(Int(count))
    }

    /// A string read as UTF-8 (what is not UTF-8 is repaired, as a display needs).
    mutating func string() -> String? {
        data().map { Self.utf8(UnsafeRawBufferPointer(start: base + $0.lowerBound, count: $0.count)) }
    }

    /// A string16: an int32 count of UTF-16 units, twice as many bytes little-endian, padding.
    mutating func string16() -> String? {
        string16Bytes().map { Self.utf16(UnsafeRawBufferPointer(start: base + $0.lowerBound, count: $0.count)) }
    }

    /// Where a string16's bytes are, read as `string16` reads it, without decoding them.
    mutating func string16Bytes() -> Range<Int>? {
        guard let units = int32(), units >= 0, units <= Int32.max / 2 else { return nil }
        return take(Int(units) * 2)
    }

    /// `bytes[range]` decoded as UTF-8, what is not UTF-8 repaired.
    static func utf8(_ bytes: FileBytes, _ range: Range<Int>) -> String {
        bytes.withUnsafeBytes(range) { utf8($0) }
    }

    /// `bytes` decoded as UTF-8, what is not UTF-8 repaired.
    static func utf8(_ bytes: UnsafeRawBufferPointer) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// `bytes[range]` decoded as little-endian UTF-16, transcoded to UTF-8 here (a lone surrogate
    /// becomes U+FFFD), which the standard library's generic UTF-16 decoding does several times slower.
    static func utf16(_ bytes: FileBytes, _ range: Range<Int>) -> String {
        bytes.withUnsafeBytes(range) { utf16($0) }
    }

    /// `buffer` decoded as little-endian UTF-16, as `utf16(_:_:)` decodes it.
    static func utf16(_ buffer: UnsafeRawBufferPointer) -> String {
        String(unsafeUninitializedCapacity: buffer.count / 2 * 3) { out in
            var written = 0
            var index = 0
            func put(_ scalar: UInt32) {
                if scalar < 0x80 {
                    out[written] = UInt8(scalar)
                    written += 1
                } else if scalar < 0x800 {
                    out[written] = UInt8(0xC0 | scalar >> 6)
                    out[written + 1] = UInt8(0x80 | scalar & 0x3F)
                    written += 2
                } else if scalar < 0x10000 {
                    out[written] = UInt8(0xE0 | scalar >> 12)
                    out[written + 1] = UInt8(0x80 | scalar >> 6 & 0x3F)
                    out[written + 2] = UInt8(0x80 | scalar & 0x3F)
                    written += 3
                } else {
                    out[written] = UInt8(0xF0 | scalar >> 18)
                    out[written + 1] = UInt8(0x80 | scalar >> 12 & 0x3F)
                    out[written + 2] = UInt8(0x80 | scalar >> 6 & 0x3F)
                    out[written + 3] = UInt8(0x80 | scalar & 0x3F)
                    written += 4
                }
            }
            while index + 1 < buffer.count {
                let unit = UInt32(buffer[index]) | UInt32(buffer[index + 1]) << 8
                index += 2
                if unit < 0xD800 || unit > 0xDFFF {
                    put(unit)
                } else if unit < 0xDC00, index + 1 < buffer.count {
                    let next = UInt32(buffer[index]) | UInt32(buffer[index + 1]) << 8
                    if (0xDC00...0xDFFF).contains(next) {
                        index += 2
                        put(0x10000 + ((unit - 0xD800) << 10) + (next - 0xDC00))
                    } else {
                        put(0xFFFD)
                    }
                } else {
                    put(0xFFFD)
                }
            }
            return written
        }
    }

    /// A `base::Token`: uint64 high, then uint64 low.
    mutating func token() -> (high: UInt64, low: UInt64)? {
        guard let high = uint64(), let low = uint64() else { return nil }
        return (high, low)
    }
}
