import Foundation
import Testing

/// `import -` reads standard input under the same 1 GiB limit as a file, checked while reading:
/// an endless stream ends with 65 and a one-line error, and nothing is written.
@Suite struct StandardInputLimitTests {
    @Test func anEndlessStreamStopsAtTheLimit() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = try CLI.runProgram("/bin/sh", ["-c", "cat /dev/zero | '\(CLI.binary)' import - --out '\(dir)/out'"], timeout: 120)
        #expect(!result.timedOut)
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("sessionctl: standard input: ") && result.stderr.contains("(limit \(1 << 30))"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/out"))
    }

    @Test func aDocumentOnStandardInputIsImported() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let document = try CLI.run(["inspect", CLI.path("Fixtures/profiles/healthy"), "--history", "--format", "json"])
        let result = try CLI.run(["import", "-", "--out", "\(dir)/out"], stdin: Data(document.stdout.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: "\(dir)/out/SessionStorage"))
    }
}
