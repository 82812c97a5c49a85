import Archive
import Foundation
import Testing

/// A bundle that carries a manifest is verified or refused: decompress never extracts a bundle
/// whose MANIFEST.json is damaged, while a foreign MANIFEST.json is only a file of the bundle.
@Suite struct BundleVerificationTests {
    /// A bundle of `profile/data.pb` (its bytes damaged after the manifest was made) and a top-level manifest.
    private func bundle(manifest: [UInt8]) throws -> Data {
        try Archives.tarGz([
            (TarEntry(path: "profile/", kind: .directory, mode: 0o755), []),
            (TarEntry(path: "profile/data.pb", kind: .file, size: 4), [1, 2, 3, 9]),
            (TarEntry(path: "MANIFEST.json", kind: .file, size: Int64(manifest.count)), manifest)
        ])
    }

    private var intact: [UInt8] {
        let sha = SHA256.hex(SHA256.hash([1, 2, 3, 4]))
        return Array(
            """
            {
              "schema": "sessionctl.manifest/1",
              "tool": "sessionctl 0.1.0",
              "created": "2026-11-27T00:00:00.000000Z",
              "root": "profile",
              "files": [
                {"path":"data.pb","size":4,"sha256":"\(sha)"}
              ]
            }

            """.utf8)
    }

    @Test(arguments: [30, 60, 120, 200])
    func aDamagedManifestIsRefusedAsAMismatchedOneIs(keeping: Int) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try bundle(manifest: intact).write(to: URL(fileURLWithPath: "\(dir)/whole.tar.gz"))
        let whole = try CLI.run(["decompress", "\(dir)/whole.tar.gz", "-o", "\(dir)/a"])
        #expect(whole.status == 65, "\(whole.stdout)\(whole.stderr)")
        try bundle(manifest: Array(intact.prefix(keeping))).write(to: URL(fileURLWithPath: "\(dir)/cut.tar.gz"))
        let cut = try CLI.run(["decompress", "\(dir)/cut.tar.gz", "-o", "\(dir)/b"])
        #expect(cut.status == 65, "manifest cut to \(keeping) bytes: \(cut.stdout)\(cut.stderr)")
        #expect(cut.stderr.contains("MANIFEST.json") && cut.stderr.split(separator: "\n").count == 1, "\(cut.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/b"), "nothing is extracted")
    }

    @Test func aForeignManifestIsExtractedAsAFile() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try bundle(manifest: Array(#"{"name": "not ours"}"#.utf8)).write(to: URL(fileURLWithPath: "\(dir)/foreign.tar.gz"))
        let result = try CLI.run(["decompress", "\(dir)/foreign.tar.gz", "-o", "\(dir)/out"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: "\(dir)/out/MANIFEST.json"))
        #expect(FileManager.default.contents(atPath: "\(dir)/out/profile/data.pb") == Data([1, 2, 3, 9]))
    }
}
