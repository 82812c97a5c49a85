import SafariIOS
import TestSupport
import Testing

/// Apple's LZ4 stream (`bv41` compressed blocks, `bv4-` stored blocks, the `bv4$` end), as
/// Safari for iOS stores a tab's state of 1 MiB or more.
struct AppleLZ4Tests {
    /// A compressible state and an incompressible one round-trip through liblz4's blocks.
    @Test func encodedStreamsDecodeToTheirBytes() throws {
        var generator = SplitMix64(seed: 7)
        let text = Array(String(repeating: "https://example.org/page?q=", count: 5000).utf8)
        let noise = (0..<4096).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        for bytes in [text, noise, []] {
            let stream = AppleLZ4.encode(bytes)
            #expect(AppleLZ4.isStream(stream))
            #expect(Array(stream.suffix(4)) == AppleLZ4.endMagic)
            #expect(try AppleLZ4.decode(stream, limit: bytes.count) == bytes)
        }
        #expect(AppleLZ4.encode(text).count < text.count / 10)
        #expect(Array(AppleLZ4.encode(noise).prefix(4)) == AppleLZ4.storedMagic)
    }

    /// Blocks follow one another, a stored block among them, and a later block may copy from the
    /// output of the block before it (LZ4's window reaches across blocks).
    @Test func blocksJoinAndReachBackIntoEarlierOutput() throws {
        let first = Array("abcdefghijklmnop".utf8)
        // A block of two sequences: 4 literals and a match 20 bytes back (into the first block's
        // output) of 4 + 8 bytes, then the 5 literals a block ends with.
        let second: [UInt8] = [0x48] + Array("WXYZ".utf8) + [20, 0] + [0x50] + Array("12345".utf8)
        let stream =
            AppleLZ4.storedMagic + le(first.count) + first + AppleLZ4.compressedMagic + le(21) + le(second.count) + second
            + AppleLZ4.endMagic
        let decoded = try AppleLZ4.decode(stream, limit: 1 << 10)
        #expect(String(decoding: decoded, as: UTF8.self) == "abcdefghijklmnopWXYZ" + "abcdefghijkl" + "12345")
    }

    /// A stream cut short, a lying size, an unknown magic and a size past the limit are damage
    /// with the offset where it was met; random bytes decode within the limit or are damage met
    /// inside them.
    @Test func damageIsReportedWithItsOffset() throws {
        let stream = AppleLZ4.encode(Array(String(repeating: "session ", count: 1000).utf8))
        #expect(throws: AppleLZ4.Damage.self) { try AppleLZ4.decode(Array(stream.dropLast(4)), limit: 1 << 20) }
        #expect(throws: AppleLZ4.Damage.self) { try AppleLZ4.decode(Array(stream.prefix(20)), limit: 1 << 20) }
        #expect(throws: AppleLZ4.Damage.self) { try AppleLZ4.decode(stream, limit: 100) }
        do {
            _ = try AppleLZ4.decode(Array("bv42xxxx".utf8), limit: 10)
            Issue.record("an unknown magic decoded")
        } catch {
            #expect(error.offset == 0)
        }
        var lying = stream
        lying[4] &+= 1  // the decoded size one more than the block holds
        #expect(throws: AppleLZ4.Damage.self) { try AppleLZ4.decode(lying, limit: 1 << 20) }
        var generator = SplitMix64(seed: 11)
        for _ in 0..<2000 {
            var bytes = AppleLZ4.compressedMagic + (0..<Int(generator.next() % 64)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            if generator.next() % 2 == 0 { bytes += AppleLZ4.endMagic }
            do {
                #expect(try AppleLZ4.decode(bytes, limit: 1 << 16).count <= 1 << 16)
            } catch {
                #expect(error.offset >= 0 && error.offset <= bytes.count)
            }
        }
    }

    /// The blocks' headers are read before any block is decoded, yet damage is told in the order
    /// of the stream: a block that does not decode before a missing end block is what is said,
    /// with its offset; the end missing after good blocks is said after they decoded.
    @Test func damageIsToldInTheStreamsOrder() throws {
        let good = AppleLZ4.storedMagic + le(3) + Array("abc".utf8)
        let bad = AppleLZ4.compressedMagic + le(8) + le(2) + [0xF0, 0xFF]
        do {
            _ = try AppleLZ4.decode(good + bad + AppleLZ4.storedMagic, limit: 1 << 10)
            Issue.record("a block that does not decode decoded")
        } catch {
            #expect(error.offset == good.count + 12)
            #expect(error.reason.contains("does not decode"))
        }
        do {
            _ = try AppleLZ4.decode(good + good, limit: 1 << 10)
            Issue.record("a stream without its end block decoded")
        } catch {
            #expect(error.offset == 2 * good.count)
            #expect(error.reason.contains("without its end block"))
        }
        #expect(try AppleLZ4.decode(good + good + AppleLZ4.endMagic, limit: 1 << 10) == Array("abcabc".utf8))
        #expect(try AppleLZ4.decode(AppleLZ4.endMagic, limit: 1 << 10) == [])
    }

    private func le(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
}
