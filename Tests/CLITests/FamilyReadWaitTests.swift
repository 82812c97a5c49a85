import Foundation
import Testing

/// Every family's reads wait for a writer of the profile, as Chrome for iOS's do
/// (`SettledReadPathTests`, `ReadDuringRepairTests`).
@Suite struct FamilyReadWaitTests {
    /// A profile of each family, the directory a writer locks (relative to the copy), and the
    /// paths a read may be given (relative to the copy).
    static let cases: [(fixture: String, locked: String, reads: [String])] = [
        ("Fixtures/firefox-desktop/gallery/healthy", "", ["", "/sessionstore.jsonlz4"]),
        ("Fixtures/firefox-desktop/gallery/session-file-skipped", "", ["/sessionstore-backups"]),
        ("Fixtures/chromium-desktop/gallery/healthy", "", ["", "/Sessions", "/Sessions/Session_13397000000000000"]),
        ("Fixtures/firefox-ios/gallery/healthy", "/profile.profile", ["", "/profile.profile", "/profile.profile/window-data"]),
        ("Fixtures/firefox-ios/gallery/healthy", "", ["/profile.profile", "/profile.profile/window-data"]),
        ("Fixtures/safari-ios/gallery/healthy", "", ["", "/BrowserState.db"])
    ]

    /// While a writer holds the profile's lock for 1.5 s, a read of any path of it waits.
    @Test(arguments: 0..<6)
    func aReadWaitsForTheWriterOfEveryFamily(index: Int) throws {
        let (fixture, locked, reads) = Self.cases[index]
        let copy = try ProfileLayoutEdgeTests.copy(fixture)
        defer { try? FileManager.default.removeItem(atPath: parentDirectory(copy)) }
        for read in reads {
            let script =
                "flock -x '\(copy)\(locked)' sleep 1.5 & sleep 0.3; start=$(date +%s%N); '\(CLI.binary)' validate '\(copy)\(read)' > /dev/null 2>&1; end=$(date +%s%N); wait; echo $(( (end - start) / 1000000 ))"
            let result = try CLI.runProgram("/bin/sh", ["-c", script], timeout: 60)
            let waited = Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
            #expect(waited >= 900, "\(fixture) locked at '\(locked)', read of '\(read)': \(waited) ms (\(result.stdout)\(result.stderr))")
        }
    }

    /// While repairs of a Firefox desktop profile run again and again (the skipped file put back
    /// by one rename each time), every read sees the profile before or after a repair.
    @Test func firefoxDesktopReadsNeverSeeARepairHalfDone() throws {
        let profile = try ProfileLayoutEdgeTests.copy("Fixtures/firefox-desktop/gallery/session-file-skipped")
        defer { try? FileManager.default.removeItem(atPath: parentDirectory(profile)) }
        let kept = parentDirectory(profile) + "/recovery.jsonlz4"
        try FileManager.default.copyItem(atPath: "\(profile)/sessionstore-backups/recovery.jsonlz4", toPath: kept)
        func tabs() throws -> String {
            let result = try CLI.run(["validate", profile, "--format", "json"])
            let summary = try #require(try FirefoxDesktopCommandTests.json(result.stdout)["summary"] as? [String: Any])
            return "\(summary["sessions"] ?? "?")/\(summary["tabs"] ?? "?")"
        }
        let before = try tabs()
        #expect(try CLI.run(["repair", profile]).status == 0)
        let after = try tabs()
        // The writer's own steps, each one rename: the repaired file moved away (`between`), then
        // the skipped file put back (`before` again). A repair seen half-done holds both files.
        let away = parentDirectory(profile) + "/away.jsonlz4"
        let undo = """
            mv '\(profile)/sessionstore.jsonlz4' '\(away)'
            cp '\(kept)' '\(profile)/sessionstore-backups/put-back.tmp' && mv '\(profile)/sessionstore-backups/put-back.tmp' '\(profile)/sessionstore-backups/recovery.jsonlz4'
            """
        _ = try CLI.runProgram("/bin/sh", ["-c", undo.split(separator: "\n")[0].description])
        let between = try tabs()
        _ = try CLI.runProgram("/bin/sh", ["-c", undo.split(separator: "\n")[1].description])
        #expect(try tabs() == before)
        let writer = """
            while [ ! -e '\(parentDirectory(profile))/readers-done' ]; do
              \(undo)
              '\(CLI.binary)' repair '\(profile)' > /dev/null 2>&1
            done
            """
        let readers = """
            sh -c "$1" &
            i=0
            while [ $i -lt 25 ]; do
              i=$((i + 1))
              out=$('\(CLI.binary)' validate '\(profile)' --format json 2>/dev/null)
              status=$?
              if [ $status = 75 ]; then echo "read locked"; continue; fi
              echo "$out" | python3 -c '
            import json, sys
            d = json.load(sys.stdin)["summary"]
            print("read %s/%s" % (d["sessions"], d["tabs"]))' 2>/dev/null || echo "read unparsable $status"
            done
            touch '\(parentDirectory(profile))/readers-done'
            wait
            """
        let result = try CLI.runProgram("/bin/sh", ["-c", readers, "sh", writer], timeout: 300)
        #expect(!result.timedOut)
        let reads = result.stdout.split(separator: "\n").filter { $0.hasPrefix("read ") }
        #expect(reads.count == 25, "\(result.stdout)\(result.stderr)")
        let wrong = reads.filter { !["read \(before)", "read \(after)", "read \(between)", "read locked"].contains(String($0)) }
        #expect(
            wrong.isEmpty,
            "before \(before), after \(after), between \(between): \(wrong.count) of \(reads.count) reads saw another state: \(Array(Set(wrong)))"
        )
    }
}
