import Archive
import FileSystemKit
import Foundation
import SessionForensics
import SessionStore
import TestSupport
import Testing

/// compress and decompress in-process: round trips, interoperability with gzip and tar, the manifest.
@Suite struct BundleRoundTripTests {
    init() { Browsers.install() }

    static func makeTree(_ scratch: Scratch) throws {
        try scratch.write("profile/SessionStorage/S1/session_metadata.pb", Array("metadata".utf8))
        try scratch.write("profile/SessionStorage/S1/00000001/data.pb", Array(repeating: 7, count: 100_000))
        try scratch.write("profile/OTR/SessionStorage/S2/session_metadata.pb", [])
        try FileManager.default.createDirectory(
            atPath: scratch.path("profile/SessionStorage/S1/00000002"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: scratch.path("profile/link"), withDestinationPath: "SessionStorage/S1")
    }

    @Test func directoryRoundTripsWithManifest() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try Self.makeTree(scratch)
        let made = try BundleCompressor(tool: "sessionctl test").compress(scratch.path("profile"))
        #expect(made.kind == .bundle && made.output == scratch.path("profile.tar.gz") && made.files == 3)
        let back = try BundleExtractor().decompress(made.output, to: scratch.path("back"))
        #expect(back.kind == .directory && back.verifiedFiles == 3 && back.files == 3)
        #expect(scratch.listing("back") == scratch.listing("profile"))
        #expect(try scratch.read("back/SessionStorage/S1/00000001/data.pb") == Array(repeating: 7, count: 100_000))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: scratch.path("back/link")) == "SessionStorage/S1")
        let mtime = { (path: String) in
            try (FileManager.default.attributesOfItem(atPath: scratch.path(path))[.modificationDate] as? Date)?.timeIntervalSince1970
        }
        #expect(
            try mtime("back/SessionStorage/S1/session_metadata.pb").map(floor)
                == mtime("profile/SessionStorage/S1/session_metadata.pb").map(floor))
        // Only the archive and the two trees: no temporary file is left.
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.root).sorted() == ["back", "profile", "profile.tar.gz"])
    }

    @Test func manifestListsEverySizeAndSha256AsSha256sumComputesThem() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try Self.makeTree(scratch)
        let made = try BundleCompressor(tool: "sessionctl test").compress(scratch.path("profile"), to: scratch.path("p.tgz"))
        #expect(try Scratch.run("tar", ["-xzf", made.output, "-C", scratch.root]).status == 0)
        let manifest = try #require(BundleManifest.decode(try scratch.read("MANIFEST.json")))
        #expect(manifest.root == "profile" && manifest.tool == "sessionctl test")
        #expect(
            manifest.files.map(\.path) == [
                "OTR/SessionStorage/S2/session_metadata.pb", "SessionStorage/S1/00000001/data.pb",
                "SessionStorage/S1/session_metadata.pb"
            ])
        for file in manifest.files {
            let sum = try Scratch.run("sha256sum", [scratch.path("profile/" + file.path)])
            #expect(String(decoding: sum.stdout.prefix(64), as: UTF8.self) == file.sha256)
            #expect(Int64(try scratch.read("profile/" + file.path).count) == file.size)
        }
    }

    @Test func tarAndGzipReadWhatCompressWrites() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try Self.makeTree(scratch)
        _ = try BundleCompressor(tool: "t").compress(scratch.path("profile"), to: scratch.path("p.tar.gz"))
        try FileManager.default.createDirectory(atPath: scratch.path("x"), withIntermediateDirectories: true)
        #expect(try Scratch.run("tar", ["-xzf", scratch.path("p.tar.gz"), "-C", scratch.path("x")]).status == 0)
        #expect(scratch.listing("x/profile") == scratch.listing("profile"))
        let file = try BundleCompressor(tool: "t").compress(
            scratch.path("profile/SessionStorage/S1/00000001/data.pb"), to: scratch.path("d.gz"))
        #expect(file.kind == .gzip)
        let plain = try Scratch.run("gzip", ["-dc", scratch.path("d.gz")])
        #expect(plain.status == 0 && [UInt8](plain.stdout) == Array(repeating: 7, count: 100_000))
    }

    @Test func decompressReadsWhatGzipAndTarWrite() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try Self.makeTree(scratch)
        #expect(try Scratch.run("tar", ["-czf", "t.tar.gz", "profile"], in: scratch.root).status == 0)
        let tree = try BundleExtractor().decompress(scratch.path("t.tar.gz"), to: scratch.path("t"))
        #expect(tree.kind == .directory && tree.verifiedFiles == nil)
        #expect(scratch.listing("t/profile") == scratch.listing("profile"))
        try scratch.write("f.pb", Array("gzip me".utf8))
        #expect(try Scratch.run("gzip", ["-k", "f.pb"], in: scratch.root).status == 0)
        let file = try BundleExtractor().decompress(scratch.path("f.pb.gz"), to: scratch.path("g.pb"))
        #expect(file.kind == .file)
        #expect(try scratch.read("g.pb") == Array("gzip me".utf8))
        #expect(
            BundleExtractor.defaultOutput(for: "a/b.tar.gz") == "a/b" && BundleExtractor.defaultOutput(for: "b.tgz") == "b"
                && BundleExtractor.defaultOutput(for: "x.pb.gz") == "x.pb" && BundleExtractor.defaultOutput(for: "x.zip") == nil)
    }

    @Test func existingOutputsAreNeverReplaced() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try Self.makeTree(scratch)
        try scratch.write("profile.tar.gz", Array("keep".utf8))
        #expect(throws: FileSystemError.exists(path: scratch.path("profile.tar.gz"))) {
            _ = try BundleCompressor(tool: "t").compress(scratch.path("profile"))
        }
        #expect(try scratch.read("profile.tar.gz") == Array("keep".utf8))
        _ = try BundleCompressor(tool: "t").compress(scratch.path("profile"), to: scratch.path("p.tar.gz"))
        try FileManager.default.createDirectory(atPath: scratch.path("taken"), withIntermediateDirectories: true)
        #expect(throws: FileSystemError.exists(path: scratch.path("taken"))) {
            _ = try BundleExtractor().decompress(scratch.path("p.tar.gz"), to: scratch.path("taken"))
        }
    }

    @Test func compressingAnOutputInsideItsInputLeavesItOut() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try Self.makeTree(scratch)
        let made = try BundleCompressor(tool: "t").compress(scratch.path("profile"), to: scratch.path("profile/self.tar.gz"))
        let listing = try Scratch.run("tar", ["-tzf", made.output])
        let names = String(decoding: listing.stdout, as: UTF8.self)
        #expect(!names.contains("self.tar.gz") && !names.contains(AtomicWriter.temporaryPrefix))
    }

    @Test func foreignManifestIsKeptAsAFile() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let archive = try Scratch.tarGz([
            (TarEntry(path: "MANIFEST.json", kind: .file), Array("{\"not\": \"ours\"}".utf8)),
            (TarEntry(path: "a.txt", kind: .file), Array("a".utf8))
        ])
        try scratch.write("f.tar.gz", archive)
        let result = try BundleExtractor().decompress(scratch.path("f.tar.gz"), to: scratch.path("f"))
        #expect(result.verifiedFiles == nil)
        #expect(scratch.listing("f") == ["MANIFEST.json", "a.txt"])
    }
}
