import Archive
import Foundation
import Testing

/// `sessionctl compress` and `decompress` as a user runs them.
@Suite struct CompressCommandTests {
    static let fixture = CLI.path("Fixtures/profiles/healthy")

    @Test func bundleRoundTripsAndTarAndGzipReadIt() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let made = try CLI.run(["compress", Self.fixture, "-o", "\(dir)/healthy.tar.gz"])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout.hasPrefix("wrote \(dir)/healthy.tar.gz: bundle of 15 files"))
        #expect(try CLI.runProgram("/usr/bin/env", ["gzip", "-t", "\(dir)/healthy.tar.gz"]).status == 0)
        let listing = try CLI.runProgram("/usr/bin/env", ["tar", "-tzf", "\(dir)/healthy.tar.gz"])
        #expect(listing.status == 0 && listing.stderr.isEmpty)
        #expect(listing.stdout.split(separator: "\n").last == "MANIFEST.json")
        let back = try CLI.run(["decompress", "\(dir)/healthy.tar.gz", "-o", "\(dir)/copy"])
        #expect(back.status == 0, "\(back.stderr)")
        #expect(back.stdout.contains("manifest verified (15 files)"))
        #expect(Archives.listing("\(dir)/copy") == Archives.listing(Self.fixture))
        for path in Archives.listing(Self.fixture) where !path.hasSuffix("/") {
            let original = FileManager.default.contents(atPath: "\(Self.fixture)/\(path)")
            #expect(FileManager.default.contents(atPath: "\(dir)/copy/\(path)") == original, "\(path)")
        }
    }

    @Test func decompressReadsTarAndGzipOutput() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let tar = try CLI.runProgram("/usr/bin/env", ["tar", "-czf", "\(dir)/t.tgz", "-C", CLI.path("Fixtures/profiles"), "healthy"])
        #expect(tar.status == 0)
        let result = try CLI.run(["decompress", "\(dir)/t.tgz", "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(json["schema"] as? String == "sessionctl.decompress/1" && json["kind"] as? String == "directory")
        #expect(json["output"] as? String == "\(dir)/t" && json["files"] as? Int == 15 && json["manifestVerified"] is NSNull)
        #expect(json["browser"] as? String == "chrome-ios", "the profile unpacked is recognised")
        #expect(Archives.listing("\(dir)/t/healthy") == Archives.listing(Self.fixture))
        let metadata = Self.fixture + "/SessionStorage/E9D8C7B6-A5F4-4321-8765-0FEDCBA98765/session_metadata.pb"
        let gz = try CLI.runProgram("/usr/bin/env", ["sh", "-c", "gzip -c '\(metadata)' > '\(dir)/m.pb.gz'"])
        #expect(gz.status == 0)
        #expect(try CLI.run(["decompress", "\(dir)/m.pb.gz"]).status == 0)
        #expect(FileManager.default.contents(atPath: "\(dir)/m.pb") == FileManager.default.contents(atPath: metadata))
    }

    @Test func compressOfAFileIsGzipAndJSONDescribesIt() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let source = "\(dir)/data.pb"
        try FileManager.default.copyItem(
            atPath: Self.fixture + "/SessionStorage/E9D8C7B6-A5F4-4321-8765-0FEDCBA98765/00000014/data.pb", toPath: source)
        let result = try CLI.run(["compress", source, "--level", "9", "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(json["kind"] as? String == "gzip" && json["output"] as? String == source + ".gz" && json["files"] as? Int == 1)
        #expect(json["browser"] as? String == "chrome-ios", "a tab's data.pb is Chrome for iOS's")
        try Data("notes".utf8).write(to: URL(fileURLWithPath: "\(dir)/notes.txt"))
        let other = try CLI.run(["compress", "\(dir)/notes.txt", "--format", "json"])
        let otherJSON = try #require(try JSONSerialization.jsonObject(with: Data(other.stdout.utf8)) as? [String: Any])
        #expect(other.status == 0 && otherJSON["browser"] is NSNull, "a file of no browser is compressed all the same")
        let same = try CLI.runProgram("/usr/bin/env", ["sh", "-c", "gzip -dc '\(source).gz' | cmp - '\(source)'"])
        #expect(same.status == 0, "\(same.stdout)")
        #expect(try CLI.run(["compress", source, "--level", "10"]).status == 64)
    }

    @Test func exitStatusesOfTheContract() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(try CLI.run(["compress", Self.fixture, "-o", "\(dir)/a.tar.gz"]).status == 0)
        let exists = try CLI.run(["compress", Self.fixture, "-o", "\(dir)/a.tar.gz"])
        #expect(
            exists.status == 73
                && exists.stderr == "sessionctl: \(dir)/a.tar.gz: already exists; name another file with -o, or move that one away first\n")
        let outExists = try CLI.run(["decompress", "\(dir)/a.tar.gz", "-o", dir])
        #expect(outExists.status == 73)
        #expect(try CLI.run(["compress", "\(dir)/missing"]).status == 66)
        #expect(try CLI.run(["decompress", "\(dir)/missing.gz"]).status == 66)
        try Data("plain text".utf8).write(to: URL(fileURLWithPath: "\(dir)/plain.gz"))
        let notGzip = try CLI.run(["decompress", "\(dir)/plain.gz"])
        #expect(notGzip.status == 65 && notGzip.stderr.contains("not a gzip file"))
        let noName = try CLI.run(["decompress", "\(dir)/a.tar.gz.bak"])
        #expect(noName.status == 64)
    }

    @Test func damagedStreamIs65WithTheOffsetAndWritesNothing() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(try CLI.run(["compress", Self.fixture, "-o", "\(dir)/a.tar.gz"]).status == 0)
        var bytes = try #require(FileManager.default.contents(atPath: "\(dir)/a.tar.gz"))
        let trailer = bytes.count - 8
        bytes[trailer] ^= 0xff
        try bytes.write(to: URL(fileURLWithPath: "\(dir)/bad.tar.gz"))
        let result = try CLI.run(["decompress", "\(dir)/bad.tar.gz"])
        #expect(result.status == 65)
        #expect(result.stderr.hasPrefix("sessionctl: \(dir)/bad.tar.gz: damaged at byte \(trailer): CRC-32 mismatch"))
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(Archives.listing(dir) == ["a.tar.gz", "bad.tar.gz"])
    }

    @Test func hostileArchivesAreRefusedWithNothingWrittenOutside() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let cases: [(String, [(TarEntry, [UInt8])])] = [
            ("absolute", [(TarEntry(path: "\(dir)/escaped", kind: .file), Array("x".utf8))]),
            ("dotdot", [(TarEntry(path: "inside", kind: .file), []), (TarEntry(path: "../escaped", kind: .file), Array("x".utf8))]),
            (
                "symlink",
                [
                    (TarEntry(path: "l", kind: .symbolicLink, linkTarget: dir), []),
                    (TarEntry(path: "l/escaped", kind: .file), Array("x".utf8))
                ]
            ),
            ("hardlink", [(TarEntry(path: "h", kind: .hardLink, linkTarget: "../../etc/passwd"), [])]),
            ("device", [(TarEntry(path: "null", kind: .characterDevice), [])])
        ]
        try FileManager.default.createDirectory(atPath: "\(dir)/out", withIntermediateDirectories: true)
        for (name, members) in cases {
            try Archives.tarGz(members).write(to: URL(fileURLWithPath: "\(dir)/\(name).tar.gz"))
            let result = try CLI.run(["decompress", "\(dir)/\(name).tar.gz", "-o", "\(dir)/out/\(name)"])
            #expect(result.status == 65, "\(name): \(result.stderr)")
            #expect(result.stderr.contains("refused"), "\(name): \(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/escaped"))
        #expect(Archives.listing("\(dir)/out").isEmpty)
        #expect(Archives.listing(dir).filter { !$0.hasSuffix(".tar.gz") } == ["out"])
    }

    @Test func aMultiGiBBombStopsEarly() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Archives.zeroBomb(gibibytes: 4).write(to: URL(fileURLWithPath: "\(dir)/bomb.gz"))
        let result = try CLI.run(["decompress", "\(dir)/bomb.gz", "--max-size", "16M"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("exceeds the size limit of 16777216 bytes"))
        #expect(Archives.listing(dir) == ["bomb.gz"])
        // A tar member declaring 6 GiB stops at its header under the default limit.
        var writer = TarWriter(sink: MemorySink())
        try writer.begin(TarEntry(path: "huge", kind: .file, size: 6 << 30))
        try Data(try GzipEncoder.compress(writer.sink.bytes + [UInt8](repeating: 0, count: 1 << 16)))
            .write(to: URL(fileURLWithPath: "\(dir)/huge.tar.gz"))
        let huge = try CLI.run(["decompress", "\(dir)/huge.tar.gz"])
        #expect(huge.status == 65 && huge.stderr.contains("size limit of 1073741824 bytes"))
        #expect(Archives.listing(dir) == ["bomb.gz", "huge.tar.gz"])
    }
}
