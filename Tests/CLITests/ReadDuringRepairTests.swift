import Foundation
import Testing

/// A reader never sees a profile half-changed by a writer: while repairs swap a window in again
/// and again, every validate and inspect sees both windows (before or after each swap).
@Suite struct ReadDuringRepairTests {
    @Test func readersNeverSeeAWindowMissingWhileRepairsSwapItIn() throws {
        let profile = try RepairCommandTests.copy("Fixtures/gallery/tab-id-duplicate")
        defer { try? FileManager.default.removeItem(atPath: parentDirectory(profile)) }
        let session = "\(profile)/SessionStorage/6A1E4C2B-9D0F-4B7A-8E3C-2F5D7B9A1C0E"
        let damaged = parentDirectory(profile) + "/damaged.pb"
        try FileManager.default.copyItem(atPath: "\(session)/session_metadata.pb", toPath: damaged)
        // The writer: the damaged list put back by one rename (a reader sees it whole), then a
        // repair that sets the window aside and swaps the repaired one in.
        let writer = """
            while [ ! -e '\(parentDirectory(profile))/readers-done' ]; do
              cp '\(damaged)' '\(session)/../damaged.tmp' && mv '\(session)/../damaged.tmp' '\(session)/session_metadata.pb'
              '\(CLI.binary)' repair '\(profile)' > /dev/null 2>&1
            done
            """
        let readers = """
            sh -c "$1" &
            i=0
            while [ $i -lt 30 ]; do
              i=$((i + 1))
              for command in validate inspect; do
                out=$('\(CLI.binary)' $command '\(profile)' --format json 2>/dev/null)
                status=$?
                if [ $status = 75 ]; then echo "read locked"; continue; fi
                echo "$out" | python3 -c '
            import json, sys
            d = json.load(sys.stdin)
            print("read", d["summary"]["sessions"] if "summary" in d else len(d["sessions"]))' 2>/dev/null || echo "read unparsable $status"
              done
            done
            touch '\(parentDirectory(profile))/readers-done'
            wait
            """
        let result = try CLI.runProgram("/bin/sh", ["-c", readers, "sh", writer], timeout: 300)
        #expect(!result.timedOut)
        let lines = result.stdout.split(separator: "\n")
        let reads = lines.filter { $0.hasPrefix("read ") }
        #expect(reads.count == 60, "\(result.stdout)\(result.stderr)")
        let wrong = reads.filter { $0 != "read 2" && $0 != "read locked" }
        #expect(wrong.isEmpty, "\(wrong.count) of \(reads.count) reads saw another number of windows: \(Array(Set(wrong)))")
    }
}

/// Every form of PATH that belongs to a profile on disk waits while a writer holds its lock.
@Suite struct SettledReadPathTests {
    @Test(arguments: [
        "", "/SessionStorage/6A1E4C2B-9D0F-4B7A-8E3C-2F5D7B9A1C0E",
        "/OTR/SessionStorage/6A1E4C2B-9D0F-4B7A-8E3C-2F5D7B9A1C0E/00000014/data.pb",
        "/..", "/SessionStorage/6A1E4C2B-9D0F-4B7A-8E3C-2F5D7B9A1C0E/0000ffff"
    ])
    func aReadWaitsForTheWriterWhateverPathNamesTheProfile(suffix: String) throws {
        let profile = try RepairCommandTests.copy("Fixtures/gallery/healthy")
        defer { try? FileManager.default.removeItem(atPath: parentDirectory(profile)) }
        // The lock a writer holds, for 1.5 s (flock(1) takes the same flock(2) lock on the directory).
        let script =
            "flock -x '\(profile)' sleep 1.5 & sleep 0.3; start=$(date +%s%N); '\(CLI.binary)' validate '\(profile)\(suffix)' > /dev/null 2>&1; status=$?; end=$(date +%s%N); wait; echo $status $(( (end - start) / 1000000 ))"
        let result = try CLI.runProgram("/bin/sh", ["-c", script], timeout: 60)
        let fields = result.stdout.split(whereSeparator: \.isWhitespace)
        let waited = fields.count == 2 ? Int(fields[1]) ?? 0 : 0
        #expect(waited >= 900, "\(suffix): the read took \(waited) ms with the lock held for 1.2 s more (\(result.stdout)\(result.stderr))")
    }
}
