import Foundation
import Testing

@testable import Archive

/// Mozilla's mozLz4 container through liblz4, against files written by Python's lz4.block
/// (Fixtures/firefox-desktop/make-mozlz4): whole files decode to their JSON, damaged ones to
/// every byte before the damage with its offset, hostile ones to an error.
@Suite struct MozLz4Tests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/firefox-desktop/mozlz4")

    private func fixture(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: Self.fixtures.appendingPathComponent(name)))
    }

    @Test func aFileWrittenByAnotherEncoderDecodesToItsJSON() throws {
        let decoded = try MozLz4.decode(fixture("sessionstore.jsonlz4"), file: "f", limit: 1 << 30)
        #expect(decoded.damage == nil)
        #expect(decoded.bytes == (try fixture("session.json")))
        #expect(decoded.declaredSize == decoded.bytes.count)
    }

    @Test(arguments: [0, 1, 100, 65_536, 300_000])
    func encodingThenDecodingGivesTheSameBytes(_ count: Int) throws {
        let bytes = Tools.bytes(count: count).map { $0 % 7 }  // compressible, not trivially
        let encoded = try MozLz4.encode(bytes, file: "f")
        #expect(Array(encoded.prefix(8)) == Array("mozLz40\0".utf8))
        #expect(encoded[8..<12].reversed().reduce(0) { $0 << 8 | Int($1) } == count)
        let decoded = try MozLz4.decode(encoded, file: "f", limit: 1 << 30)
        #expect(decoded.bytes == bytes && decoded.damage == nil)
    }

    @Test func aCutBlockGivesEveryByteBeforeTheCut() throws {
        let whole = try fixture("session.json")
        let decoded = try MozLz4.decode(fixture("truncated.jsonlz4"), file: "f", limit: 1 << 30)
        let damage = try #require(decoded.damage)
        #expect(decoded.bytes.count > whole.count / 3, "more than the bytes of the first third decode")
        #expect(Array(whole.prefix(decoded.bytes.count)) == decoded.bytes)
        let size = try fixture("truncated.jsonlz4").count
        #expect(damage.fileOffset > MozLz4.headerSize && damage.fileOffset <= size)
    }

    @Test func everyCutOfAFileGivesAPrefixOfItsJSONAndNeverTraps() throws {
        let file = try fixture("sessionstore.jsonlz4")
        let whole = try fixture("session.json")
        var longest = 0
        for length in stride(from: MozLz4.headerSize, through: file.count, by: 7) {
            let decoded = try MozLz4.decode(Array(file.prefix(length)), file: "f", limit: 1 << 30)
            #expect(Array(whole.prefix(decoded.bytes.count)) == decoded.bytes, "cut at \(length)")
            #expect(decoded.bytes.count >= longest - 64, "a longer cut never decodes much less (cut at \(length))")
            longest = max(longest, decoded.bytes.count)
            if length < file.count { #expect(decoded.damage != nil) }
        }
    }

    @Test func aHeaderThatLiesAboutTheSizeIsDamageAtTheHeader() throws {
        let decoded = try MozLz4.decode(fixture("size-lying.jsonlz4"), file: "f", limit: 1 << 30)
        #expect(decoded.bytes == (try fixture("session.json")))
        #expect(decoded.damage?.fileOffset == 8)
        #expect(decoded.damage?.reason.contains("the header gives \(decoded.bytes.count + 100) bytes") == true)
        // A header giving less than the block holds: the declared bytes, and the damage.
        var short = try fixture("sessionstore.jsonlz4")
        short[8] = short[8] &- 10
        let cut = try MozLz4.decode(short, file: "f", limit: 1 << 30)
        #expect(cut.damage != nil && cut.bytes.count == cut.declaredSize)
    }

    /// A header giving fewer bytes than the block holds, by one or by many, or none at all, is
    /// damage at the header, with the declared bytes decoded.
    @Test(arguments: [1, 100, Int.max])
    func aHeaderThatUnderstatesTheSizeIsDamageAtTheHeader(_ less: Int) throws {
        var file = try fixture("sessionstore.jsonlz4")
        let size = file[8..<12].reversed().reduce(0) { $0 << 8 | Int($1) }
        let declared = less == Int.max ? 0 : size - less
        file.replaceSubrange(8..<12, with: withUnsafeBytes(of: UInt32(declared).littleEndian, Array.init))
        let decoded = try MozLz4.decode(file, file: "f", limit: 1 << 30)
        #expect(decoded.damage?.fileOffset == 8, "\(decoded.damage.map(\.reason) ?? "")")
        #expect(decoded.damage?.reason.contains("the block holds more than the \(declared) bytes") == true)
        #expect(decoded.bytes == Array((try fixture("session.json")).prefix(declared)))
    }

    /// Memory follows what the block can hold (255 times its size at most), not a lying header.
    @Test func aHugeDeclaredSizeOverASmallBlockStaysSmall() throws {
        let file = MozLz4.magic + [0xFF, 0xFF, 0xFF, 0x3F] + Array(repeating: 0x1F, count: 527)
        let decoded = try MozLz4.decode(file, file: "f", limit: 1 << 30)
        #expect(decoded.declaredSize == 0x3FFF_FFFF && decoded.bytes.count <= 527 * 255 + 16 && decoded.damage != nil)
    }

    @Test func whatIsNoContainerOrTooLargeIsRefused() throws {
        #expect(throws: ArchiveError.self) { try MozLz4.decode(fixture("bad-magic.jsonlz4"), file: "f", limit: 1 << 30) }
        #expect(throws: ArchiveError.self) { try MozLz4.decode(Array("mozLz40\0\u{1}".utf8), file: "f", limit: 1 << 30) }
        // A block that holds more than the limit is refused for its size, whatever its header gives.
        let large = try MozLz4.encode([UInt8](repeating: 0, count: 2 << 20), file: "f")
        #expect(throws: ArchiveError.tooLarge(file: "f", limit: 1 << 20)) { try MozLz4.decode(large, file: "f", limit: 1 << 20) }
        // A header giving more than the limit over a block that holds less is read as Firefox reads
        // it (IOUtils decodes into the header's size and takes what the block holds).
        let huge = Array("mozLz40\0".utf8) + [0xFF, 0xFF, 0xFF, 0x7F, 0x00]
        let decoded = try MozLz4.decode(huge, file: "f", limit: 1 << 20)
        #expect(decoded.bytes.isEmpty && decoded.declaredSize == 0x7FFF_FFFF && decoded.decodesInFirefox)
    }

    @Test func garbageBlocksNeverTrapAndStayWithinTheDeclaredSize() throws {
        for seed in 1...200 {
            let body = Tools.bytes(count: 1 + Int(seed) * 13 % 3000, seed: UInt64(seed))
            let size = Int(seed) * 997 % 70_000
            let file = Array("mozLz40\0".utf8) + withUnsafeBytes(of: UInt32(size).littleEndian, Array.init) + body
            let decoded = try MozLz4.decode(file, file: "f", limit: 1 << 20)
            #expect(decoded.bytes.count <= size)
        }
    }
}
