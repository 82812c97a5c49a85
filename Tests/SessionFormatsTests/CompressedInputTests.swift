import Archive
import Foundation
import SessionModel
import TestSupport
import Testing

@testable import SessionFormats

/// Gzip files and .tar.gz bundles as inputs, read in memory: located like the trees they hold.
@Suite struct CompressedInputTests {
    init() { Browsers.install() }

    static let healthy = Corpus.repository.appendingPathComponent("Fixtures/profiles/healthy").path

    /// The regular files of the healthy fixture, relative to it.
    static func fixtureFiles() -> [String] {
        (FileManager.default.enumerator(atPath: healthy)?.compactMap { $0 as? String } ?? [])
            .filter { (try? FileManager.default.attributesOfItem(atPath: healthy + "/" + $0)[.type] as? FileAttributeType) == .typeRegular }
            .sorted()
    }

    /// A .tar.gz of the fixture's files under `prefix`, plus extra members.
    static func tarGz(prefix: String, only: (String) -> Bool = { _ in true }, extra: [(TarEntry, [UInt8])] = []) throws -> [UInt8] {
        var writer = TarWriter(sink: MemorySink())
        for path in fixtureFiles() where only(path) {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: healthy + "/" + path)))
            try writer.add(TarEntry(path: prefix + path, kind: .file), content: bytes)
        }
        for (entry, content) in extra { try writer.add(entry, content: content) }
        return try GzipEncoder.compress(try writer.finish().bytes)
    }

    /// Writes bytes to a fresh temporary file named `name` and returns its path.
    static func temporary(_ name: String, _ bytes: [UInt8]) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("compressed-input-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func sessions(_ input: LocatedInput, history: Bool = true) throws -> [Session] {
        try SessionReader(input: input).readAll(history: history)
    }

    @Test func aBundleReadsLikeTheProfile() throws {
        let manifest = (TarEntry(path: "MANIFEST.json", kind: .file), Array("{}".utf8))
        let path = try Self.temporary("healthy.tar.gz", try Self.tarGz(prefix: "healthy/", extra: [manifest]))
        let input = try InputOpener.open(path)
        #expect(input.kind == .profile)
        #expect(try Self.sessions(input) == Self.sessions(InputOpener.open(Self.healthy)))
        #expect(input.tree.displayName == path + "/healthy")
    }

    @Test func contentNotNameTellsAnArchive() throws {
        let path = try Self.temporary("profile.data", try Self.tarGz(prefix: "./"))
        let input = try InputOpener.open(path)
        #expect(input.kind == .profile)
        #expect(try Self.sessions(input, history: false).count == 4)
    }

    @Test func aSessionDirectoryArchiveIsOneSession() throws {
        let session = "SessionStorage/7A3F0C2E-1B4D-4E8F-9A6B-5C2D1E0F3A4B/"
        let bytes = try Self.tarGz(prefix: "", only: { $0.hasPrefix(session) })
        let input = try InputOpener.open(try Self.temporary("s.tgz", bytes))
        #expect(input.sessions.map(\.id) == ["7A3F0C2E-1B4D-4E8F-9A6B-5C2D1E0F3A4B"])
        let sessions = try Self.sessions(input)
        #expect(sessions.first?.tabs.count == 6)
        #expect(sessions.first?.tabs.allSatisfy { $0.history != nil } == true)
    }

    @Test func aGzippedSessionFileIsThatFile() throws {
        let metadata = "SessionStorage/E9D8C7B6-A5F4-4321-8765-0FEDCBA98765/session_metadata.pb"
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.healthy + "/" + metadata)))
        let gz = try GzipEncoder.compress(bytes, header: GzipHeader(name: "session_metadata.pb"))
        let path = try Self.temporary("anything.bin", gz)
        let input = try InputOpener.open(path)
        #expect(input.kind == .file)
        let direct = try Self.sessions(InputOpener.open(Self.healthy + "/" + metadata), history: false)
        #expect(try Self.sessions(input, history: false).map(\.tabs) == direct.map(\.tabs))
    }

    @Test func hostileMembersAreRefused() throws {
        let evil = (TarEntry(path: "../evil", kind: .file), Array("x".utf8))
        let path = try Self.temporary("evil.tar.gz", try Self.tarGz(prefix: "p/", extra: [evil]))
        #expect(throws: FormatError.notASession(path: path, reason: "archive entry '../evil' refused: path climbs out with '..'")) {
            _ = try InputOpener.open(path)
        }
    }

    @Test func damageIsReportedWithItsOffset() throws {
        var bytes = try Self.tarGz(prefix: "p/")
        bytes[bytes.count - 8] ^= 0x40
        let path = try Self.temporary("bad.tar.gz", bytes)
        let error = #expect(throws: FormatError.self) { _ = try InputOpener.open(path) }
        #expect(error?.description.hasPrefix("\(path): damaged at byte \(bytes.count - 8): CRC-32 mismatch") == true)
        let truncated = try Self.temporary("cut.tar.gz", Array(bytes[..<200]))
        #expect(throws: FormatError.damaged(file: truncated, offset: 200, reason: "unexpected end of gzip data (truncated)")) {
            _ = try InputOpener.open(truncated)
        }
    }

    @Test func readingInMemoryStopsAtTheLimit() throws {
        let path = try Self.temporary("big.gz", try GzipEncoder.compress([UInt8](repeating: 0, count: 1 << 20)))
        do {
            _ = try CompressedInput.open(path, ancestry: [], limit: 1 << 16)
            Issue.record("no limit")
        } catch {
            #expect(error.description.contains("exceeds 65536 bytes"))
        }
    }

    @Test func archiveTreeListsReadsAndNeverFollowsLinks() throws {
        var writer = TarWriter(sink: MemorySink())
        try writer.add(TarEntry(path: "a/b/file", kind: .file), content: [1, 2, 3])
        try writer.add(TarEntry(path: "a/link", kind: .symbolicLink, linkTarget: "b/file"))
        try writer.add(TarEntry(path: "a/hard", kind: .hardLink, linkTarget: "a/b/file"))
        try writer.add(TarEntry(path: "a/empty", kind: .directory))
        var reader = TarReader(file: "t")
        var builder = ArchiveTreeBuilder(file: "t")
        try writer.finish().bytes.withUnsafeBytes { try reader.feed($0, into: &builder) }
        let tree = builder.tree(displayName: "t.tar")
        #expect(tree.list("") == ["a"])
        #expect(tree.list("a") == ["b", "empty", "hard", "link"])
        #expect(tree.kind(of: "a/link") == .other && tree.kind(of: "a/empty") == .directory && tree.kind(of: "a/b") == .directory)
        #expect(try tree.read("a/hard") == [1, 2, 3])
        #expect(tree.size(of: "a/b/file") == 3)
        #expect(throws: FormatError.unreadable(path: "t.tar/a/link", reason: "not a regular file")) { _ = try tree.read("a/link") }
        #expect(throws: FormatError.unreadable(path: "t.tar/nothing", reason: "no such file in the archive")) {
            _ = try tree.read("nothing")
        }
        let sub = tree.subtree("a/b")
        #expect(sub.displayName == "t.tar/a/b" && sub.list("") == ["file"])
        #expect(try sub.read("file") == [1, 2, 3])
    }
}
