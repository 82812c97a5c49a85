import Archive
import Foundation
import Testing

/// Collects every member of a tar stream with its content.
struct TarCollector: TarEntryHandler {
    var entries: [(entry: TarEntry, content: [UInt8])] = []

    mutating func begin(_ entry: TarEntry) throws { entries.append((entry, [])) }
    mutating func content(_ bytes: UnsafeRawBufferPointer) throws { entries[entries.count - 1].content.append(contentsOf: bytes) }
    mutating func end() throws {}

    /// Reads a whole tar stream in chunks of `chunk` bytes.
    static func read(_ bytes: [UInt8], chunk: Int = 1000) throws -> TarCollector {
        var reader = TarReader(file: "test.tar")
        var collector = TarCollector()
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + chunk, bytes.count)
            try bytes[offset..<end].withUnsafeBytes { try reader.feed($0, into: &collector) }
            offset = end
        }
        try reader.finish()
        return collector
    }
}

/// The POSIX tar writer and reader, and interoperability with GNU tar in each of its formats.
@Suite struct TarTests {
    static let longName = "SessionStorage/" + String(repeating: "7A3F0C2E-1B4D-4E8F-9A6B-5C2D1E0F3A4B/", count: 3) + "0000000a/data.pb"
    static let veryLongName = String(repeating: "deep-directory-name/", count: 16) + "file-with-a-long-name.pb"

    static func sample() throws -> [UInt8] {
        var writer = TarWriter(sink: MemorySink())
        try writer.add(TarEntry(path: "profile", kind: .directory, mode: 0o755, modificationTime: 1_700_000_000))
        try writer.add(
            TarEntry(path: "profile/a.pb", kind: .file, mode: 0o600, modificationTime: 1_700_000_001), content: Tools.bytes(count: 1234))
        try writer.add(TarEntry(path: "profile/empty", kind: .file, modificationTime: 1_700_000_002))
        try writer.add(TarEntry(path: "profile/" + longName, kind: .file, modificationTime: 1_700_000_003), content: Array("long".utf8))
        try writer.add(
            TarEntry(path: "profile/" + veryLongName, kind: .file, modificationTime: 1_700_000_004), content: Array("very long".utf8))
        try writer.add(TarEntry(path: "profile/link", kind: .symbolicLink, modificationTime: 1_700_000_005, linkTarget: "a.pb"))
        try writer.add(TarEntry(path: "profile/ünïcödé name.pb", kind: .file, modificationTime: 1_700_000_006), content: Array("u".utf8))
        return try writer.finish().bytes
    }

    @Test func roundTripsThroughOurReader() throws {
        let bytes = try Self.sample()
        #expect(bytes.count % 10240 == 0)
        for chunk in [1, 511, 512, 4096] {
            let read = try TarCollector.read(bytes, chunk: chunk)
            #expect(
                read.entries.map(\.entry.path) == [
                    "profile", "profile/a.pb", "profile/empty", "profile/" + Self.longName,
                    "profile/" + Self.veryLongName, "profile/link", "profile/ünïcödé name.pb"
                ])
            #expect(read.entries[1].content == Tools.bytes(count: 1234))
            #expect(read.entries[1].entry.mode == 0o600)
            #expect(read.entries[1].entry.modificationTime == 1_700_000_001)
            #expect(read.entries[0].entry.kind == .directory)
            #expect(read.entries[4].content == Array("very long".utf8))
            #expect(read.entries[5].entry.kind == .symbolicLink && read.entries[5].entry.linkTarget == "a.pb")
        }
    }

    @Test func gnuTarReadsWhatWeWrite() throws {
        let directory = try Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let archive = directory + "/sample.tar"
        try Data(try Self.sample()).write(to: URL(fileURLWithPath: archive))
        let listing = try Tools.run("tar", ["-tf", archive])
        #expect(listing.status == 0, "\(listing.stderr)")
        #expect(listing.stderr.isEmpty, "tar warned: \(listing.stderr)")
        let names = String(decoding: listing.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(
            names == [
                "profile/", "profile/a.pb", "profile/empty", "profile/" + Self.longName,
                "profile/" + Self.veryLongName, "profile/link", "profile/ünïcödé name.pb"
            ])
        let extract = try Tools.run("tar", ["-xf", archive, "-C", directory])
        #expect(extract.status == 0, "\(extract.stderr)")
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory + "/profile/a.pb"))) == Tools.bytes(count: 1234))
        #expect(try String(contentsOfFile: directory + "/profile/" + Self.veryLongName, encoding: .utf8) == "very long")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: directory + "/profile/link") == "a.pb")
        let attributes = try FileManager.default.attributesOfItem(atPath: directory + "/profile/a.pb")
        #expect((attributes[.modificationDate] as? Date)?.timeIntervalSince1970 == 1_700_000_001)
    }

    @Test(arguments: ["gnu", "posix", "ustar", "oldgnu"])
    func weReadWhatGnuTarWrites(format: String) throws {
        let directory = try Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let root = directory + "/tree"
        let longDirectory = root + "/" + String(repeating: "d", count: 60) + "/" + String(repeating: "e", count: 60)
        try FileManager.default.createDirectory(atPath: longDirectory, withIntermediateDirectories: true)
        try Data(Tools.bytes(count: 3000)).write(to: URL(fileURLWithPath: root + "/plain.pb"))
        try Data("deep".utf8).write(to: URL(fileURLWithPath: longDirectory + "/f.pb"))
        try FileManager.default.createSymbolicLink(atPath: root + "/sym", withDestinationPath: "plain.pb")
        try FileManager.default.linkItem(atPath: root + "/plain.pb", toPath: root + "/hard.pb")
        let result = try Tools.run("tar", ["--format=\(format)", "-cf", "-", "-C", directory, "tree"])
        #expect(result.status == 0, "\(result.stderr)")
        let read = try TarCollector.read([UInt8](result.stdout), chunk: 700)
        let byPath = Dictionary(read.entries.map { ($0.entry.path, $0) }, uniquingKeysWith: { $1 })
        #expect(byPath["tree/plain.pb"]?.content == Tools.bytes(count: 3000) || byPath["tree/hard.pb"]?.content == Tools.bytes(count: 3000))
        #expect(byPath["tree/sym"]?.entry.kind == .symbolicLink && byPath["tree/sym"]?.entry.linkTarget == "plain.pb")
        let hard = read.entries.first { $0.entry.kind == .hardLink }
        #expect(hard != nil)
        let deep = "tree/" + String(repeating: "d", count: 60) + "/" + String(repeating: "e", count: 60) + "/f.pb"
        #expect(byPath[deep]?.content == Array("deep".utf8), "\(read.entries.map(\.entry.path))")
        #expect(byPath["tree"]?.entry.kind == .directory)
    }

    @Test func gnuLongNamesBeyondUstarLimits() throws {
        let directory = try Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let name = String(repeating: "n", count: 200)
        try Data("x".utf8).write(to: URL(fileURLWithPath: directory + "/" + name))
        try FileManager.default.createSymbolicLink(atPath: directory + "/l", withDestinationPath: String(repeating: "t", count: 150))
        for format in ["gnu", "posix"] {
            let result = try Tools.run("tar", ["--format=\(format)", "-cf", "-", name, "l"], in: directory)
            let read = try TarCollector.read([UInt8](result.stdout))
            #expect(read.entries.map(\.entry.path) == [name, "l"])
            #expect(read.entries[1].entry.linkTarget == String(repeating: "t", count: 150))
        }
    }

    @Test func damagedHeaderIsReportedAtItsOffset() throws {
        var bytes = try Self.sample()
        // The second header starts after the directory's header (512 bytes).
        bytes[512 + 10] ^= 0x20
        #expect(GzipTests.damageOffset { _ = try TarCollector.read(bytes) } == 512)
    }

    @Test func truncatedArchiveIsReportedAtTheEnd() throws {
        let bytes = try Self.sample()
        let cut = 512 + 512 + 300
        #expect(GzipTests.damageOffset { _ = try TarCollector.read(Array(bytes[..<cut])) } == Int64(cut))
    }

    @Test func malformedPaxRecordIsDamage() throws {
        var writer = TarWriter(sink: MemorySink())
        try writer.add(TarEntry(path: String(repeating: "p", count: 300), kind: .file), content: [1])
        var bytes = try writer.finish().bytes
        // The pax data block follows the pax header; break its length digits.
        bytes[512] = UInt8(ascii: "x")
        #expect(GzipTests.damageOffset { _ = try TarCollector.read(bytes) } == 0)
    }

    @Test func largeValuesGoToPax() throws {
        var writer = TarWriter(sink: MemorySink())
        try writer.add(TarEntry(path: "f", kind: .file, modificationTime: -5, userID: 1 << 30), content: [9])
        let bytes = try writer.finish().bytes
        let read = try TarCollector.read(bytes)
        #expect(read.entries.count == 1)
        #expect(read.entries[0].entry.modificationTime == -5)
        #expect(read.entries[0].entry.userID == 1 << 30)
        #expect(read.entries[0].content == [9])
    }

    @Test func tarDetection() throws {
        #expect(TarFormat.isTar(try Self.sample()))
        #expect(!TarFormat.isTar(Tools.bytes(count: 1024)))
        #expect(!TarFormat.isTar([UInt8](repeating: 0, count: 1024)))
    }
}
