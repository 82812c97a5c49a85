import Archive
import CZlib
import Foundation
import Testing

/// gzip encoding and decoding: round trips, interoperability with gzip(1), damage and limits.
@Suite struct GzipTests {
    /// Decodes in chunks of `chunk` bytes, as a file is read.
    static func decode(_ bytes: [UInt8], chunk: Int = 4096, limit: Int64 = .max) throws -> [UInt8] {
        let decoder = try GzipDecoder(file: "test.gz", limit: limit)
        var out: [UInt8] = []
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + chunk, bytes.count)
            try bytes[offset..<end].withUnsafeBytes { raw in try decoder.feed(raw) { out.append(contentsOf: $0) } }
            offset = end
        }
        try decoder.finish()
        return out
    }

    /// The damage offset an error reports, or nil when it is not damage.
    static func damageOffset(_ body: () throws -> Void) -> Int64? {
        do { try body() } catch let ArchiveError.damaged(_, offset, _) { return offset } catch { return nil }
        return nil
    }

    @Test(arguments: [0, 1, 6, 9])
    func roundTripsAtEveryLevel(level: Int) throws {
        for size in [0, 1, 100, 70_000, 300_000] {
            let data = Tools.bytes(count: size, seed: UInt64(size + level))
            let compressed = try GzipEncoder.compress(data, level: level)
            #expect(try Self.decode(compressed) == data)
            if size <= 1000 { #expect(try Self.decode(compressed, chunk: 1) == data) }
        }
    }

    /// The bytes made depend on the block size only: compressed on the writing thread or on any
    /// number of workers, a stream of many blocks (with a strategy switch and a full flush among
    /// them) comes out the same, and gzip(1) reads it back.
    @Test(arguments: [0, 1, 6, 9])
    func blocksComeOutTheSameOnAnyNumberOfThreads(level: Int) throws {
        let data = Tools.bytes(count: 700_001, seed: UInt64(40 + level))
        func encode(threads: Int) throws -> [UInt8] {
            let encoder = try GzipEncoder(sink: MemorySink(), level: level, threads: threads, blockSize: 1 << 16)
            var offset = 0
            var step = 1
            while offset < data.count {
                let end = min(data.count, offset + step)
                try encoder.write(Array(data[offset..<end]))
                if offset < 300_000 && end >= 300_000 { try encoder.flush() }
                if offset < 500_000 && end >= 500_000 { try encoder.setStrategy(.filtered) }
                offset = end
                step = step * 7 % 90_001 + 1
            }
            #expect(encoder.inputCount == Int64(data.count))
            let bytes = try encoder.finish().bytes
            #expect(encoder.outputCount == Int64(bytes.count))
            return bytes
        }
        let inline = try encode(threads: 0)
        #expect(try Self.decode(inline) == data)
        for threads in [1, 2, 5] { #expect(try encode(threads: threads) == inline, "\(threads) threads") }
        let result = try Tools.run("gzip", ["-d", "-c"], stdin: Data(inline))
        #expect(result.status == 0, "\(result.stderr)")
        #expect([UInt8](result.stdout) == data)
    }

    /// A sink that fails ends the stream: the error comes out of the call that met it and out of
    /// every later call, at once (no call waits again for a block already handed out).
    @Test func aFailingSinkEndsTheStream() throws {
        struct Refusing: ByteSink {
            struct Full: Error {}
            var room: Int
            mutating func write(_ bytes: UnsafeRawBufferPointer) throws {
                guard bytes.count <= room else { throw Full() }
                room -= bytes.count
            }
        }
        let encoder = try GzipEncoder(sink: Refusing(room: 20_000), level: 1, threads: 2, blockSize: 1 << 15)
        let data = Tools.bytes(count: 400_000, seed: 5)
        var failures = 0
        do { try encoder.write(data) } catch is Refusing.Full { failures += 1 }
        do { try encoder.flush() } catch is Refusing.Full { failures += 1 }
        do { try encoder.write([1, 2, 3]) } catch is Refusing.Full { failures += 1 }
        do { try encoder.finish() } catch is Refusing.Full { failures += 1 }
        do { try encoder.finish() } catch is Refusing.Full { failures += 1 }
        #expect(failures == 5)
    }

    /// Cutting the input into blocks costs little: the stream stays within 1% of what one zlib
    /// stream over the same bytes makes (each block reaches back 32 KiB into the one before).
    @Test func blocksCompressAlmostAsWellAsOneStream() throws {
        let text = Array((0..<30_000).map { "tab \($0 % 700) https://example.org/page/\($0 % 1300) title \($0 % 37)\n" }.joined().utf8)
        let blocks = try GzipEncoder.compress(text)
        let single = try GzipEncoder(sink: MemorySink(), level: 6, threads: 0, blockSize: text.count + 1)
        try single.write(text)
        let whole = try single.finish().bytes
        #expect(text.count > 8 * (1 << 17))
        #expect(Double(blocks.count) <= Double(whole.count) * 1.01, "\(blocks.count) vs \(whole.count)")
        #expect(try Self.decode(blocks) == text)
    }

    @Test func oneByteChunksDecode() throws {
        let data = Tools.bytes(count: 5000)
        let compressed = try GzipEncoder.compress(data, header: GzipHeader(modificationTime: 1_700_000_000, name: "a.pb", comment: "c"))
        #expect(try Self.decode(compressed, chunk: 1) == data)
    }

    @Test func gzipReadsWhatWeWrite() throws {
        let data = Tools.bytes(count: 200_000, seed: 7)
        let compressed = try GzipEncoder.compress(data, header: GzipHeader(modificationTime: 1_700_000_000, name: "x.bin"))
        let result = try Tools.run("gzip", ["-d", "-c"], stdin: Data(compressed))
        #expect(result.status == 0, "\(result.stderr)")
        #expect([UInt8](result.stdout) == data)
        let test = try Tools.run("gzip", ["-t", "-v"], stdin: Data(compressed))
        #expect(test.status == 0, "\(test.stderr)")
    }

    @Test func aStrategySwitchKeepsOneStreamAndShrinksDigests() throws {
        let text = Array((0..<400).map { "line \($0) of ordinary text, repeated words repeated words\n" }.joined().utf8)
        // Hexadecimal digests: near-random characters from a small alphabet.
        let digests = Array(Tools.bytes(count: 32 * 2000, seed: 11).map { String(format: "%02x", $0) }.joined().utf8)
        let switched = try GzipEncoder(sink: MemorySink(), level: 6)
        try switched.write(text)
        try switched.setStrategy(.filtered)
        try switched.write(digests)
        let bytes = try switched.finish().bytes
        #expect(try Self.decode(bytes) == text + digests)
        let result = try Tools.run("gzip", ["-d", "-c"], stdin: Data(bytes))
        #expect(result.status == 0, "\(result.stderr)")
        #expect([UInt8](result.stdout) == text + digests)
        #expect(bytes.count < (try GzipEncoder.compress(text + digests)).count)
    }

    @Test func weReadWhatGzipWrites() throws {
        let directory = try Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let data = Tools.bytes(count: 150_000, seed: 11)
        try Data(data).write(to: URL(fileURLWithPath: directory + "/file.pb"))
        for level in ["-1", "-6", "-9"] {
            let result = try Tools.run("gzip", [level, "-c", "-N", "file.pb"], in: directory)
            #expect(result.status == 0)
            let decoder = try GzipDecoder(file: "file.pb.gz")
            var out: [UInt8] = []
            try [UInt8](result.stdout).withUnsafeBytes { raw in try decoder.feed(raw) { out.append(contentsOf: $0) } }
            try decoder.finish()
            #expect(out == data)
            #expect(decoder.firstHeader?.name == "file.pb")
        }
    }

    @Test func multiMemberFilesAsGzipWritesThem() throws {
        let first = Array("first part\n".utf8)
        let second = Tools.bytes(count: 40_000, seed: 5)
        let a = try Tools.run("gzip", ["-c"], stdin: Data(first)).stdout
        let b = try Tools.run("gzip", ["-c"], stdin: Data(second)).stdout
        let ours = try GzipEncoder.compress(Array("third".utf8))
        let joined = [UInt8](a) + [UInt8](b) + ours
        #expect(try Self.decode(joined, chunk: 777) == first + second + Array("third".utf8))
        // And gzip agrees on the same concatenation.
        #expect([UInt8](try Tools.run("gzip", ["-d", "-c"], stdin: Data(joined)).stdout) == first + second + Array("third".utf8))
        // Zero padding after the last member is accepted, as from a tape or a padded block device.
        #expect(try Self.decode(joined + [UInt8](repeating: 0, count: 1000)) == first + second + Array("third".utf8))
    }

    @Test func crcMismatchIsReportedAtTheTrailer() throws {
        var compressed = try GzipEncoder.compress(Tools.bytes(count: 10_000))
        let trailer = compressed.count - 8
        compressed[trailer] ^= 0xff
        #expect(Self.damageOffset { _ = try Self.decode(compressed) } == Int64(trailer))
    }

    @Test func sizeMismatchIsReportedAtTheSizeField() throws {
        var compressed = try GzipEncoder.compress(Tools.bytes(count: 10_000))
        compressed[compressed.count - 2] ^= 0x01
        #expect(Self.damageOffset { _ = try Self.decode(compressed) } == Int64(compressed.count - 4))
    }

    @Test func truncationIsReportedAtTheEnd() throws {
        let compressed = try GzipEncoder.compress(Tools.bytes(count: 50_000))
        for cut in [5, 11, compressed.count / 2, compressed.count - 3] {
            #expect(Self.damageOffset { _ = try Self.decode(Array(compressed[..<cut])) } == Int64(cut))
        }
    }

    @Test func corruptDeflateDataIsReportedAtOrAfterTheBadByte() throws {
        let compressed = try GzipEncoder.compress(Tools.bytes(count: 60_000, seed: 9))
        var detected = 0
        for position in stride(from: 12, to: compressed.count - 8, by: 97) {
            var damaged = compressed
            damaged[position] ^= 0x5a
            guard let offset = Self.damageOffset({ _ = try Self.decode(damaged) }) else {
                Issue.record("damage at \(position) not reported")
                continue
            }
            #expect(offset >= Int64(position) - 8 && offset < Int64(compressed.count))
            if offset < Int64(compressed.count - 8) { detected += 1 }
        }
        #expect(detected > 0)
    }

    @Test func headerDamageHasExactOffsets() throws {
        let compressed = try GzipEncoder.compress(Array("x".utf8))
        var badMethod = compressed
        badMethod[2] = 7
        #expect(Self.damageOffset { _ = try Self.decode(badMethod) } == 2)
        var badFlags = compressed
        badFlags[3] = 0x80
        #expect(Self.damageOffset { _ = try Self.decode(badFlags) } == 3)
        var garbageAfter = compressed
        garbageAfter.append(contentsOf: Array("junk".utf8))
        #expect(Self.damageOffset { _ = try Self.decode(garbageAfter) } == Int64(compressed.count))
    }

    @Test func notGzipIsNotDamage() throws {
        #expect(throws: ArchiveError.notAnArchive(file: "test.gz", reason: "not a gzip file (no gzip magic bytes)")) {
            _ = try Self.decode(Array("plain text".utf8))
        }
        #expect(throws: ArchiveError.notAnArchive(file: "test.gz", reason: "empty file, not gzip")) {
            _ = try Self.decode([])
        }
    }

    @Test func headerCRCIsChecked() throws {
        // FHCRC set: 10 fixed bytes, then the low 16 bits of their CRC-32.
        let body = try GzipEncoder.compress(Array("hello".utf8))
        var header: [UInt8] = [0x1f, 0x8b, 8, 0x02, 0, 0, 0, 0, 0, 3]
        let crc = header.withUnsafeBytes { raw in
            crc32OfBytes(raw)
        }
        header += [UInt8(crc & 0xff), UInt8(crc >> 8 & 0xff)]
        let stream = header + body[10...]
        #expect(try Self.decode(Array(stream)) == Array("hello".utf8))
        var bad = Array(stream)
        bad[10] ^= 1
        #expect(Self.damageOffset { _ = try Self.decode(bad) } == 10)
    }

    @Test func aMultiGiBBombStopsAtTheLimit() throws {
        let bomb = try Tools.zeroBomb(gibibytes: 8)
        #expect(bomb.count < 16 << 20)
        let limit: Int64 = 64 << 20
        let decoder = try GzipDecoder(file: "bomb.gz", limit: limit)
        var received: Int64 = 0
        var fed = 0
        let error = #expect(throws: ArchiveError.self) {
            try bomb.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let end = min(offset + 65536, raw.count)
                    fed = end
                    try decoder.feed(UnsafeRawBufferPointer(rebasing: raw[offset..<end])) { received += Int64($0.count) }
                    offset = end
                }
            }
        }
        #expect(error == .tooLarge(file: "bomb.gz", limit: limit))
        #expect(received <= limit)
        // It stopped early: only a small part of the bomb was read.
        #expect(fed < bomb.count / 10)
    }
}

/// CRC-32 through zlib, for building test headers.
func crc32OfBytes(_ raw: UnsafeRawBufferPointer) -> UInt {
    crc32(0, raw.baseAddress!.assumingMemoryBound(to: Bytef.self), uInt(raw.count))
}
