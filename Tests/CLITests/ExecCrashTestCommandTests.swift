import Foundation
import Testing

/// `sessionctl crash-test --exec` as a CI job runs it: the JSON document with the failures grouped
/// and explained, failing states kept to open, and clear refusals (usage, no strace, a program
/// that fails, a shared writable mapping).
@Suite struct ExecCrashTestCommandTests {
    /// A new directory holding `state/data.txt` with `old`.
    private func workspace() throws -> String {
        let root = NSTemporaryDirectory() + "exec-cli-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root + "/state", withIntermediateDirectories: true)
        try "old\n".write(toFile: root + "/state/data.txt", atomically: false, encoding: .utf8)
        return root
    }

    private let check =
        #"c=$(cat "$1/data.txt" 2>/dev/null) || { echo missing; exit 1; }; [ "$c" = old ] || [ "$c" = new ] || { echo "got $c"; exit 1; }"#

    @Test func aWriterInPlaceFailsWithItsUnsafeStepAndKeptStates() throws {
        let root = try workspace()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let result = try CLI.run(
            [
                "crash-test", "--exec", "--dir", "state", "--model", "process", "--check", check, "--keep", "kept", "--format", "json",
                "--", "sh", "-c", "printf 'new\\n' > data.txt"
            ], in: root)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(document["mode"] as? String == "exec")
        #expect(document["browser"] as? String == "none")
        #expect(document["verdict"] as? String == "fail")
        let exec = try #require(document["exec"] as? [String: Any])
        #expect(exec["program"] as? [String] == ["sh", "-c", "printf 'new\\n' > data.txt"])
        #expect((exec["firstUnsafeStep"] as? String)?.hasPrefix("truncated data.txt in place") == true)
        #expect((exec["groups"] as? [[String: Any]])?.isEmpty == false)
        let failures = try #require(document["failures"] as? [[String: Any]])
        let first = try #require(failures.first)
        #expect(first["oracle"] as? String == "checker")
        #expect((first["explanation"] as? [String])?.first?.hasPrefix("crash after operation") == true)
        let kept = try #require(first["directory"] as? String)
        #expect(FileManager.default.fileExists(atPath: kept + "/data.txt"))
        #expect(try String(contentsOfFile: root + "/state/data.txt", encoding: .utf8) == "old\n", "--dir itself is never changed")
    }

    @Test func aSafeWriterPassesAndTheTextSaysSo() throws {
        let root = try workspace()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let result = try CLI.run(
            [
                "crash-test", "--exec", "--dir", "state", "--check", check, "--", "sh", "-c",
                "printf 'new\\n' > t && sync t && mv t data.txt && sync ."
            ],
            in: root)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("no failing state: the checker accepts every crash state"))
    }

    @Test func refusalsAreOneLineWithTheirStatus() throws {
        let root = try workspace()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let usage = try CLI.run(["crash-test", "--exec", "--dir", "state", "--", "true"], in: root)
        #expect(usage.status == 64)
        #expect(usage.stderr.contains("--exec needs --check"))
        let failing = try CLI.run(["crash-test", "--exec", "--dir", "state", "--check", "true", "--", "sh", "-c", "exit 4"], in: root)
        #expect(failing.status == 70)
        #expect(failing.stderr.contains("exited with status 4"))
        let noStrace = try CLI.run(
            ["crash-test", "--exec", "--dir", "state", "--check", "true", "--", "/bin/true"], environment: ["PATH": "/nonexistent"],
            in: root)
        #expect(noStrace.status == 69)
        #expect(noStrace.stderr.contains("strace is not installed"))
        let mapping = try CLI.run(
            [
                "crash-test", "--exec", "--dir", "state", "--check", "true", "--", "python3", "-c",
                "import mmap; f = open('data.txt', 'r+b'); m = mmap.mmap(f.fileno(), 0); m[0:1] = b'O'; m.flush()"
            ], in: root)
        #expect(mapping.status == 65, "\(mapping.stderr)")
        #expect(mapping.stderr.contains("shared writable mapping of data.txt"))
        #expect(mapping.stderr.split(separator: "\n").count == 1)
    }
}
