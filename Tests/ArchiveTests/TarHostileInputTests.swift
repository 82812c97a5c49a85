import Archive
import Testing

/// The tar reader on headers built to break it (found by the tar fuzz target and the hostile-input
/// CLI test): every one ends as damage, never a trap.
@Suite struct TarHostileInputTests {
    /// One header block of type `flag` whose size field holds `size` in GNU base-256, checksum sealed,
    /// followed by `content` bytes.
    static func header(typeFlag flag: UInt8, size: Int64, content: Int = 3) -> [UInt8] {
        var block = [UInt8](repeating: 0, count: 512)
        for (index, byte) in "member".utf8.enumerated() { block[index] = byte }
        block[124] = 0x80
        for index in 0..<8 { block[128 + index] = UInt8(truncatingIfNeeded: UInt64(size) >> UInt64(8 * (7 - index))) }
        block[156] = flag
        for (index, byte) in "ustar\u{0}00".utf8.enumerated() { block[257 + index] = byte }
        for index in 148..<156 { block[index] = UInt8(ascii: " ") }
        let digits = Array(String(block.reduce(0) { $0 + Int($1) }, radix: 8).utf8)
        for (index, byte) in (Array(repeating: UInt8(ascii: "0"), count: 6 - digits.count) + digits + [0]).enumerated() {
            block[148 + index] = byte
        }
        return block + [UInt8](repeating: 0x41, count: content)
    }

    /// Members skipped whole (a volume label, a GNU dump directory, an unknown type) declaring a
    /// size near 2^63: rounding it up to whole blocks overflowed and trapped.
    @Test(arguments: ["V", "D", "Z"])
    func skippedMemberDeclaringAHugeSize(flag: String) throws {
        let bytes = Self.header(typeFlag: UInt8(ascii: Unicode.Scalar(flag)!), size: .max)
        var reader = TarReader(file: "huge.tar")
        var collector = TarCollector()
        try bytes.withUnsafeBytes { try reader.feed($0, into: &collector) }
        #expect(throws: ArchiveError.self) { try reader.finish() }
        #expect(reader.offset == Int64(bytes.count))
    }

    @Test func fileDeclaringAHugeSizeIsTruncated() throws {
        let bytes = Self.header(typeFlag: UInt8(ascii: "0"), size: .max)
        #expect(throws: ArchiveError.damaged(file: "test.tar", offset: 515, reason: "tar stream ends inside 'member' (truncated)")) {
            try TarCollector.read(bytes)
        }
    }
}
