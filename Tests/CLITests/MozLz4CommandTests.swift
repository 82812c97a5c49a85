import Foundation
import Testing

/// `decompress` and `compress` between Firefox's mozLz4 files and their JSON.
@Suite struct MozLz4CommandTests {
    private let fixtures = CLI.path("Fixtures/firefox-desktop/mozlz4")

    @Test func aSessionStoreBecomesItsJSONAndBackAgain() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let copy = directory + "/sessionstore.jsonlz4"
        try FileManager.default.copyItem(atPath: fixtures + "/sessionstore.jsonlz4", toPath: copy)
        let decompressed = try CLI.run(["decompress", copy, "--format", "json"])
        #expect(decompressed.status == 0, "\(decompressed.stderr)")
        #expect(decompressed.stdout.contains("\"kind\": \"mozlz4\""))
        let json = directory + "/sessionstore.json"
        #expect(FileManager.default.contents(atPath: json) == FileManager.default.contents(atPath: fixtures + "/session.json"))
        let recompressed = try CLI.run(["compress", json, "-o", directory + "/recovery.baklz4"])
        #expect(recompressed.status == 0, "\(recompressed.stderr)")
        #expect(recompressed.stdout.contains("mozLz4"))
        let again = try CLI.run(["decompress", directory + "/recovery.baklz4"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(FileManager.default.contents(atPath: directory + "/recovery.bak") == FileManager.default.contents(atPath: json))
    }

    @Test(arguments: ["truncated.jsonlz4", "size-lying.jsonlz4", "bad-magic.jsonlz4"])
    func aDamagedFileWritesNothingAndSaysWhere(_ name: String) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try CLI.run(["decompress", fixtures + "/" + name, "-o", directory + "/out.json"])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(name == "bad-magic.jsonlz4" ? result.stderr.contains("mozLz40") : result.stderr.contains("damaged at byte"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
    }

    @Test func aDirectoryIsNoMozLz4File() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try CLI.run(["compress", fixtures, "-o", directory + "/x.jsonlz4"])
        #expect(result.status != 0 && result.stderr.contains("mozLz4"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
    }
}
