/// The 512-byte ustar header block: field layout, numbers, checksum (POSIX.1-1988 plus GNU's variants).
enum TarHeaderBlock {
    static let size = 512
    static let name = 0..<100
    static let mode = 100..<108
    static let uid = 108..<116
    static let gid = 116..<124
    static let fileSize = 124..<136
    static let mtime = 136..<148
    static let checksum = 148..<156
    static let typeFlag = 156
    static let linkName = 157..<257
    static let magic = 257..<263
    static let version = 263..<265
    static let userName = 265..<297
    static let groupName = 297..<329
    static let deviceMajor = 329..<337
    static let deviceMinor = 337..<345
    static let prefix = 345..<500

    static let posixMagic: [UInt8] = Array("ustar\0".utf8)
    static let gnuMagic: [UInt8] = Array("ustar ".utf8)

    /// The largest value an octal field of `width` bytes holds (width - 1 digits and a terminator).
    static func octalLimit(_ width: Int) -> Int64 { (Int64(1) << Int64(3 * (width - 1))) - 1 }

    /// Writes `value` as zero-padded octal digits followed by NUL; false when it does not fit.
    @discardableResult
    static func putOctal(_ value: Int64, _ field: Range<Int>, in block: inout [UInt8]) -> Bool {
        guard value >= 0, value <= octalLimit(field.count) else { return false }
        // Zero-padded octal digits, the last first, then the terminating NUL.
        var rest = value
        for index in stride(from: field.upperBound - 2, through: field.lowerBound, by: -1) {
            block[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest & 7)
            rest >>= 3
        }
        block[field.upperBound - 1] = 0
        return true
    }

    /// Copies bytes into a field; false when they do not fit.
    @discardableResult
    static func putBytes(_ bytes: some Collection<UInt8>, _ field: Range<Int>, in block: inout [UInt8]) -> Bool {
        guard bytes.count <= field.count else { return false }
        for (index, byte) in bytes.enumerated() { block[field.lowerBound + index] = byte }
        return true
    }

    /// Fills in the checksum field of a finished block.
    static func seal(_ block: inout [UInt8]) {
        for index in checksum { block[index] = UInt8(ascii: " ") }
        let sum = block.reduce(0) { $0 + Int64($1) }
        putOctal(sum, checksum.lowerBound..<(checksum.upperBound - 1), in: &block)
        block[checksum.upperBound - 1] = UInt8(ascii: " ")
    }

    /// True when the stored checksum matches the block (unsigned, or the signed sum old tars wrote).
    static func checksumMatches(_ block: UnsafeRawBufferPointer) -> Bool {
        guard let stored = try? number(block, checksum) else { return false }
        var unsigned: Int64 = 0
        var signed: Int64 = 0
        for index in 0..<size {
            let byte = checksum.contains(index) ? UInt8(ascii: " ") : block[index]
            unsigned += Int64(byte)
            signed += Int64(Int8(bitPattern: byte))
        }
        return stored == unsigned || stored == signed
    }

    /// A numeric field: octal digits (space or NUL padded), or GNU base-256 when the high bit is set.
    static func number(_ block: UnsafeRawBufferPointer, _ field: Range<Int>) throws(TarFieldError) -> Int64 {
        let first = block[field.lowerBound]
        if first & 0x80 != 0 {
            var value: Int64 = first & 0x40 != 0 ? -1 : 0
            value = (value << 6) | Int64(first & 0x3f)
            for index in (field.lowerBound + 1)..<field.upperBound {
                guard value >> 55 == 0 || value >> 55 == -1 else { throw TarFieldError() }
                value = (value << 8) | Int64(block[index])
            }
            return value
        }
        var value: Int64 = 0
        var index = field.lowerBound
        while index < field.upperBound, block[index] == UInt8(ascii: " ") || block[index] == 0 { index += 1 }
        var digits = 0
        while index < field.upperBound, block[index] >= UInt8(ascii: "0"), block[index] <= UInt8(ascii: "7") {
            guard value >> 60 == 0 else { throw TarFieldError() }
            value = value * 8 + Int64(block[index] - UInt8(ascii: "0"))
            index += 1
            digits += 1
        }
        while index < field.upperBound {
            guard block[index] == UInt8(ascii: " ") || block[index] == 0 else { throw TarFieldError() }
            index += 1
        }
        return value
    }

    /// A NUL-terminated string field.
    static func string(_ block: UnsafeRawBufferPointer, _ field: Range<Int>) -> String {
        var end = field.lowerBound
        while end < field.upperBound, block[end] != 0 { end += 1 }
        return String(decoding: UnsafeRawBufferPointer(rebasing: block[field.lowerBound..<end]), as: UTF8.self)
    }

    /// True when every byte of the block is zero (the end-of-archive marker).
    static func isZero(_ block: UnsafeRawBufferPointer) -> Bool {
        block.allSatisfy { $0 == 0 }
    }

    /// True when `bytes` begin with something that is plainly a tar header: valid checksum and a ustar magic.
    static func looksLikeHeader(_ bytes: some Collection<UInt8>) -> Bool {
        guard bytes.count >= size else { return false }
        let block = Array(bytes.prefix(size))
        return block.withUnsafeBytes { raw in
            guard !isZero(raw), checksumMatches(raw) else { return false }
            let magic = Array(raw[TarHeaderBlock.magic])
            return magic == posixMagic || magic == gnuMagic
        }
    }
}

/// A numeric header field that is not a number.
struct TarFieldError: Error {}

/// Public detection of tar content.
public enum TarFormat {
    /// True when `bytes` begin with a ustar, pax or GNU tar header.
    public static func isTar(_ bytes: some Collection<UInt8>) -> Bool { TarHeaderBlock.looksLikeHeader(bytes) }
}
