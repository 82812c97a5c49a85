import Foundation
import TestSupport
import Testing

@testable import CrashSimulator

/// `crash-test --exec` on real programs (the shell and coreutils, GNU sed, the sqlite3 shell),
/// each with the verdict its documented behaviour predicts, judged by a checker of its own.
struct ExecCrashTestTests {
    /// A directory holding `data.txt` with `old`, made for one test.
    private func directory(_ files: [String: String] = ["data.txt": "old\n"]) throws -> String {
        let path = NSTemporaryDirectory() + "exec-test-" + UUID().uuidString + "/state"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        for (name, content) in files { try content.write(toFile: path + "/" + name, atomically: false, encoding: .utf8) }
        return path
    }

    private func run(
        _ program: [String], check: String, model: PersistenceModel, files: [String: String] = ["data.txt": "old\n"],
        splitsRenames: Bool = false
    ) throws -> ExecCrashTest.Report {
        let dir = try directory(files)
        defer { try? FileManager.default.removeItem(atPath: (dir as NSString).deletingLastPathComponent) }
        var configuration = ExecCrashTest.Configuration(program: program, directory: dir, check: check)
        configuration.model = model
        configuration.splitsRenames = splitsRenames
        return try ExecCrashTest(configuration: configuration).run()
    }

    /// The checker of a writer that replaces data.txt: the old content or the new, nothing else.
    private let oldOrNew = #"f="$1/data.txt"; c=$(cat "$f" 2>/dev/null) || exit 1; [ "$c" = old ] || [ "$c" = new ]"#

    /// The shell's `>` truncates the file, then writes it: a crash of the process alone between
    /// the two leaves it empty.
    @Test func aWriterThatTruncatesInPlaceFailsWhenOnlyTheProcessDies() throws {
        let report = try run(["sh", "-c", "printf 'new\\n' > data.txt"], check: oldOrNew, model: .process)
        #expect(report.result.failed > 0)
        #expect(report.result.failuresByOracle[.checker] == report.result.failed)
        #expect(report.firstUnsafeStep?.hasPrefix("truncated data.txt in place") == true)
        #expect(report.operations == 2)
    }

    /// A new file and a rename survive the process dying at every point, but not a power loss:
    /// the rename can reach the disk before the data it names.
    @Test func aRenameWithoutFsyncPassesProcessDeathAndFailsPowerLoss() throws {
        let program = ["sh", "-c", "printf 'new\\n' > data.tmp && mv data.tmp data.txt"]
        #expect(try run(program, check: oldOrNew, model: .process).result.failed == 0)
        let report = try run(program, check: oldOrNew, model: .pessimistic)
        #expect(report.result.failed > 0)
        #expect(report.firstUnsafeStep?.hasPrefix("renamed data.tmp over data.txt before fsync of its data") == true)
        #expect(!report.groups.isEmpty)
    }

    /// The same with the data synced before the rename and the directory after (coreutils' sync
    /// of a file is its fsync): every crash state holds the old content or the new, unless a
    /// rename can reach the disk in parts (`--split-renames`), which only those states fail.
    @Test func aSyncedRenamePassesPowerLoss() throws {
        let program = ["sh", "-c", "printf 'new\\n' > data.tmp && sync data.tmp && mv data.tmp data.txt && sync ."]
        let report = try run(program, check: oldOrNew, model: .pessimistic)
        #expect(report.result.failed == 0)
        #expect(report.result.explored > 10)
        let split = try run(program, check: oldOrNew, model: .pessimistic, splitsRenames: true)
        #expect(split.result.failed > 0)
        #expect(split.groups.allSatisfy { $0.cause.contains("torn rename") })
    }

    /// What the program printed before the crash reaches the checker: a writer that says `saved`
    /// before its directory is synced breaks its promise on power loss, not on process death.
    @Test func whatTheProgramPrintedIsAPromiseTheCheckerHolds() throws {
        let program = ["sh", "-c", "printf 'new\\n' > data.tmp && sync data.tmp && mv data.tmp data.txt && echo saved"]
        let check = oldOrNew + #" && { ! grep -q saved "$SESSIONCTL_STATE_OUTPUT" || [ "$c" = new ]; }"#
        #expect(try run(program, check: check, model: .process).result.failed == 0)
        let report = try run(program, check: check, model: .pessimistic)
        #expect(report.result.failed > 0)
        #expect(report.outputs == 1)
        #expect(report.firstUnsafeStep?.contains("without fsync of its directory") == true)
    }

    /// GNU sed -i writes a new file and renames it over the old without an fsync (as its manual
    /// page does not promise one): safe when the process dies, not on power loss.
    @Test func sedInPlaceIsAtomicButNotDurable() throws {
        let program = ["sed", "-i", "s/old/new/", "data.txt"]
        #expect(try run(program, check: oldOrNew, model: .process).result.failed == 0)
        let report = try run(program, check: oldOrNew, model: .pessimistic)
        #expect(report.result.failed > 0)
        #expect(report.firstUnsafeStep?.contains("before fsync of its data") == true)
    }

    /// A directory holding an SQLite database made by `sql`.
    private func database(_ sql: String) throws -> String {
        let dir = try directory([:])
        let setup = Process()
        setup.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        setup.arguments = [dir + "/db", sql]
        setup.standardOutput = FileHandle.nullDevice
        try setup.run()
        setup.waitUntilExit()
        return dir
    }

    private func run(_ program: [String], in dir: String, check: String, model: PersistenceModel) throws -> ExecCrashTest.Report {
        defer { try? FileManager.default.removeItem(atPath: (dir as NSString).deletingLastPathComponent) }
        var configuration = ExecCrashTest.Configuration(program: program, directory: dir, check: check)
        configuration.model = model
        return try ExecCrashTest(configuration: configuration).run()
    }

    /// SQLite's rollback journal (journal_mode=DELETE), a loop of transactions, each commit printed
    /// by the sqlite3 shell (a child of the shell that runs it). SQLite commits by deleting the
    /// journal, and syncs the directory after it only under synchronous=EXTRA (pager.c deletes the
    /// journal with sqlite3OsDelete(..., pPager->extraSync)): under FULL every state is whole (its
    /// integrity check answers ok) and the process dying loses nothing, but a power loss can bring
    /// the journal back and roll the last printed commit back; under EXTRA every printed commit
    /// stays.
    @Test(.exhaustive, arguments: [("FULL", PersistenceModel.process, 0), ("FULL", .pessimistic, 1), ("EXTRA", .pessimistic, 0)])
    func sqliteKeepsEveryPrintedCommitOnlyWithExtraSync(synchronous: String, model: PersistenceModel, failing: Int) throws {
        let dir = try database("PRAGMA journal_mode=DELETE; CREATE TABLE t(n INTEGER);")
        let loop = (1...4).map { "BEGIN; INSERT INTO t VALUES (\($0)); COMMIT; SELECT 'commit \($0)';" }.joined(separator: " ")
        let check = #"""
            [ "$(sqlite3 "$1/db" 'PRAGMA integrity_check')" = ok ] || { echo "integrity check fails"; exit 1; }
            last=$(sed -n 's/^commit //p' "$SESSIONCTL_STATE_OUTPUT" | tail -1)
            [ -z "$last" ] || [ "$(sqlite3 "$1/db" "SELECT count(*) FROM t WHERE n <= $last")" = "$last" ] || { echo "commit $last lost"; exit 1; }
            """#
        let report = try run(
            ["sh", "-c", "sqlite3 db \"PRAGMA synchronous=\(synchronous); \(loop)\""], in: dir, check: check, model: model)
        #expect(report.result.failed == failing)
        #expect(report.outputs >= 1)
        #expect(report.operations > 20)
        if failing > 0 {
            #expect(report.result.failures.first?.message == "the checker says: commit 4 lost")
            #expect(report.firstUnsafeStep == "unlink db-journal without fsync of its directory (lost in the crash)")
        }
    }

    /// With journal_mode=OFF an update of several pages is written in place page by page: a crash
    /// between two pages leaves rows of both versions, even when only the process dies.
    @Test func sqliteWithoutItsJournalTearsAMultiPageUpdate() throws {
        let dir = try database(
            "CREATE TABLE t(x TEXT); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 24) INSERT INTO t SELECT printf('%.1000c', 'a') FROM n;"
        )
        let check =
            #"[ "$(sqlite3 "$1/db" 'SELECT count(DISTINCT substr(x, 1, 1)) FROM t')" = 1 ] || { echo "rows of both versions"; exit 1; }"#
        let report = try run(
            ["sqlite3", "db", "PRAGMA journal_mode=OFF; UPDATE t SET x = replace(x, 'a', 'b');"], in: dir, check: check, model: .process)
        #expect(report.result.failed > 0)
        #expect(report.result.failuresByOracle[.checker] == report.result.failed)
    }

    /// coreutils' cp copies with copy_file_range: the bytes of a file outside the directory the
    /// program never wrote are read from it (the rebuild matches the copy), and a cp of a file the
    /// program wrote outside is refused (its content at the copy is not known).
    @Test func copiesFromOutsideAreReadFromTheSourceTheProgramDidNotWrite() throws {
        let source = NSTemporaryDirectory() + "exec-source-" + UUID().uuidString
        try "copied\n".write(toFile: source, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: source) }
        // A copy cut by the crash holds a prefix of the source, never other bytes.
        let prefix = #"c=$(cat "$1/copy.txt" 2>/dev/null); case "copied" in "$c"*) exit 0;; esac; echo "holds $c"; exit 1"#
        let report = try run(["cp", source, "copy.txt"], check: prefix, model: .process)
        #expect(report.result.failed == 0)
        #expect(report.operations >= 2)
        #expect(throws: SimulatorError.self) {
            try run(["sh", "-c", "echo new > \(source) && cp \(source) copy.txt"], check: "true", model: .process)
        }
    }

    /// A checker that exits neither 0 nor 1 is a checker error, reported as such.
    @Test func aCheckerThatBreaksIsNotAVerdict() throws {
        let report = try run(["sh", "-c", "printf 'new\\n' > data.txt"], check: "exit 7", model: .process)
        #expect(report.result.failuresByOracle[.checkerError] == report.result.failed)
        #expect(report.result.failures.first?.message.contains("exit 7") == true)
    }

    /// A program that fails in its uninterrupted run is not crash-tested.
    @Test func aFailingProgramIsRefused() throws {
        #expect(throws: SimulatorError.self) { try run(["sh", "-c", "exit 3"], check: "true", model: .process) }
    }
}
