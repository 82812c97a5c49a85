import Archive
import Foundation
import SessionForensics
import SessionStore
import TestSupport
import Testing

/// decompress against hostile, damaged and oversized archives: refused, with nothing written.
@Suite struct BundleSafetyTests {
    init() { Browsers.install() }

    /// Decompresses `archive` from `work/` into `work/out` and returns the error; checks that nothing was written.
    static func refuse(_ archive: [UInt8], limit: Int64 = BundleExtractor.defaultMaxSize) throws -> (any Error)? {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("work/archive.tar.gz", archive)
        var caught: (any Error)?
        do {
            _ = try BundleExtractor(maxSize: limit).decompress(scratch.path("work/archive.tar.gz"), to: scratch.path("work/out"))
        } catch {
            caught = error
        }
        #expect(scratch.listing() == ["work", "work/archive.tar.gz"], "something was written")
        return caught
    }

    static func file(_ path: String, _ content: String = "x") -> (TarEntry, [UInt8]) {
        (TarEntry(path: path, kind: .file), Array(content.utf8))
    }

    static func link(_ path: String, to target: String, hard: Bool = false) -> (TarEntry, [UInt8]) {
        (TarEntry(path: path, kind: hard ? .hardLink : .symbolicLink, linkTarget: target), [])
    }

    static let hostile: [(String, [(TarEntry, [UInt8])])] = [
        ("absolute path", [file("ok"), file("/tmp/sessionctl-evil")]),
        ("dot-dot", [file("../evil")]),
        ("dot-dot inside", [file("a/b"), file("a/../../evil")]),
        ("dot-dot through pax", [file("../" + String(repeating: "p", count: 200))]),
        ("symlink to absolute", [link("l", to: "/etc")]),
        ("symlink climbing out", [link("l", to: "../outside")]),
        ("nested symlink climbing out", [file("d/f"), link("d/l", to: "../../outside")]),
        ("symlink with dot-dot after a name", [file("d/f"), link("l", to: "d/../..")]),
        ("write through a symlink", [file("sub/f"), link("l", to: "sub"), file("l/evil")]),
        ("hard link out", [link("h", to: "../../etc/passwd", hard: true)]),
        ("hard link absolute", [link("h", to: "/etc/passwd", hard: true)]),
        ("hard link to nothing extracted", [link("h", to: "missing", hard: true)]),
        ("character device", [(TarEntry(path: "dev", kind: .characterDevice), [])]),
        ("fifo", [(TarEntry(path: "fifo", kind: .fifo), [])])
    ]

    @Test(arguments: hostile.map(\.0))
    func hostileMembersAreRefused(name: String) throws {
        let members = try #require(Self.hostile.first { $0.0 == name }?.1)
        let error = try Self.refuse(try Scratch.tarGz(members))
        guard case ArchiveError.unsafeEntry? = error else {
            Issue.record("\(name): expected an unsafe-entry refusal, got \(String(describing: error))")
            return
        }
        #expect(!FileManager.default.fileExists(atPath: "/tmp/sessionctl-evil"))
    }

    @Test func linksThatStayInsideAreExtracted() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write(
            "a.tar.gz",
            try Scratch.tarGz([
                Self.file("d/f", "content"), Self.link("d/l", to: "../d/f"),
                Self.link("top", to: "d"), Self.link("h", to: "d/f", hard: true)
            ]))
        let result = try BundleExtractor().decompress(scratch.path("a.tar.gz"), to: scratch.path("out"))
        #expect(result.files == 2)
        #expect(try scratch.read("out/d/l") == Array("content".utf8))
        #expect(try scratch.read("out/h") == Array("content".utf8))
    }

    @Test func aDeclaredHugeMemberStopsAtItsHeader() throws {
        var writer = TarWriter(sink: MemorySink())
        try writer.begin(TarEntry(path: "huge", kind: .file, size: 6 << 30))
        let stream = writer.sink.bytes + [UInt8](repeating: 0, count: 1 << 20)
        let error = try Self.refuse(try GzipEncoder.compress(stream), limit: 1 << 20)
        guard case ArchiveError.tooLarge(_, let limit)? = error else {
            Issue.record("expected tooLarge, got \(String(describing: error))")
            return
        }
        #expect(limit == 1 << 20)
    }

    @Test func manySmallMembersStopAtTheTotalLimit() throws {
        let members = (0..<4).map { (TarEntry(path: "f\($0)", kind: .file), [UInt8](repeating: 0, count: 600_000)) }
        let error = try Self.refuse(try Scratch.tarGz(members), limit: 1 << 20)
        guard case ArchiveError.tooLarge(_, let limit)? = error else {
            Issue.record("expected tooLarge, got \(String(describing: error))")
            return
        }
        #expect(limit == 1 << 20)
    }

    @Test func aPlainGzipBombStopsAtTheLimit() throws {
        let encoder = try GzipEncoder(sink: MemorySink(), level: 9)
        let zeros = [UInt8](repeating: 0, count: 1 << 20)
        for _ in 0..<64 { try encoder.write(zeros) }
        let error = try Self.refuse(try encoder.finish().bytes, limit: 1 << 20)
        guard case ArchiveError.tooLarge? = error else {
            Issue.record("expected tooLarge, got \(String(describing: error))")
            return
        }
    }

    @Test func damagedStreamsAreReportedWithTheirOffset() throws {
        var archive = try Scratch.tarGz([Self.file("a", String(repeating: "abcdefgh", count: 5000)), Self.file("b", "b")])
        let trailer = archive.count - 8
        archive[trailer] ^= 0xff
        let error = try Self.refuse(archive)
        guard case ArchiveError.damaged(_, let offset, _)? = error else {
            Issue.record("expected damage, got \(String(describing: error))")
            return
        }
        #expect(offset == Int64(trailer))
        let truncated = try Self.refuse(Array(archive[..<(archive.count / 2)]))
        guard case ArchiveError.damaged(_, let cut, _)? = truncated else {
            Issue.record("expected damage, got \(String(describing: truncated))")
            return
        }
        #expect(cut == Int64(archive.count / 2))
        guard case ArchiveError.notAnArchive? = try Self.refuse(Array("not gzip at all".utf8)) else {
            Issue.record("plain text was not refused as not gzip")
            return
        }
    }

    @Test func manifestMismatchesAreRefused() throws {
        let good = Archive.SHA256.hex(Archive.SHA256.hash(Array("x".utf8)))
        func manifest(_ files: [BundleManifest.File]) -> (TarEntry, [UInt8]) {
            (
                TarEntry(path: "MANIFEST.json", kind: .file),
                BundleManifest(tool: "t", created: "2026-01-01T00:00:00.000000Z", root: "p", files: files).encoded()
            )
        }
        let cases: [[(TarEntry, [UInt8])]] = [
            [Self.file("p/a"), manifest([.init(path: "a", size: 1, sha256: String(repeating: "0", count: 64))])],
            [Self.file("p/a"), manifest([.init(path: "a", size: 2, sha256: good)])],
            [Self.file("p/a"), manifest([.init(path: "a", size: 1, sha256: good), .init(path: "b", size: 1, sha256: good)])],
            [Self.file("p/a"), Self.file("p/extra"), manifest([.init(path: "a", size: 1, sha256: good)])]
        ]
        for members in cases {
            let error = try Self.refuse(try Scratch.tarGz(members))
            guard case ArchiveError.manifestMismatch? = error else {
                Issue.record("expected a manifest mismatch, got \(String(describing: error))")
                continue
            }
        }
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("ok.tar.gz", try Scratch.tarGz([Self.file("p/a"), manifest([.init(path: "a", size: 1, sha256: good)])]))
        let result = try BundleExtractor().decompress(scratch.path("ok.tar.gz"), to: scratch.path("ok"))
        #expect(result.verifiedFiles == 1 && scratch.listing("ok") == ["a"])
    }
}
