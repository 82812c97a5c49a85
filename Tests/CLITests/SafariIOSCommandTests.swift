import Foundation
import Testing

/// The commands on Safari for iOS's BrowserState.db (Fixtures/safari-ios, written by Python's
/// sqlite3 and plistlib), as a user runs them: each gallery case validated as its table says and
/// repaired to a database Safari keeps with every tab that could be read, set aside first; a
/// backup read and never changed; aside's round trip.
@Suite struct SafariIOSCommandTests {
    static let gallery = "Fixtures/safari-ios/gallery"

    /// A copy of a gallery case (Safari's directory); returns it.
    static func copy(_ path: String) throws -> String {
        let target = try CLI.temporaryDirectory("safari-ios") + "/Safari"
        try FileManager.default.copyItem(atPath: CLI.path(path), toPath: target)
        return target
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// The tabs inspect lists of `path`, open windows' then closed tabs', by title.
    static func titles(_ path: String) throws -> [String] {
        let run = try CLI.run(["inspect", "--format", "json", path])
        #expect(run.status == 0, "\(run.stderr)")
        let sessions = try json(run.stdout)["sessions"] as? [[String: Any]] ?? []
        return sessions.flatMap { ($0["tabs"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String } }
    }

    @Test(arguments: [
        "browser-state-refused", "browser-state-integrity", "tab-state-dropped", "torn-page", "tab-window-missing",
        "active-index-out-of-range", "tab-state-size-mismatch"
    ])
    func aDatabaseSafariWouldNotKeepWhollyIsWrittenAnewWithEveryTab(_ name: String) throws {
        let safari = try Self.copy("\(Self.gallery)/\(name)")
        defer { try? FileManager.default.removeItem(atPath: parentDirectory(safari)) }
        let before = try Data(contentsOf: URL(fileURLWithPath: "\(safari)/BrowserState.db"))
        let validate = try CLI.run(["validate", safari])
        #expect(validate.stdout.contains(name == "torn-page" ? "browser-state-integrity" : name), "\(validate.stdout)")
        let repair = try CLI.run(["repair", safari])
        #expect(repair.status == 0, "\(repair.stdout)\(repair.stderr)")
        let after = try CLI.run(["validate", "--format", "json", safari])
        #expect(after.status == 0, "\(after.stdout)")
        #expect((try Self.json(after.stdout)["findings"] as? [Any])?.isEmpty == true)
        #expect(try Self.titles(safari) == ["First", "Second"])
        // The original is set aside whole; the live database is SQLite's, in WAL mode.
        let entries = try FileManager.default.subpathsOfDirectory(atPath: "\(safari)/Backups/browser-state")
        let aside = try #require(entries.first { $0.hasSuffix("/BrowserState.db") })
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(safari)/Backups/browser-state/\(aside)")) == before)
        let written = try Data(contentsOf: URL(fileURLWithPath: "\(safari)/BrowserState.db"))
        #expect(written.prefix(16) == Data("SQLite format 3\0".utf8))
        #expect(written[18] == 2 && written[19] == 2)
        // Run again: nothing to do.
        let again = try CLI.run(["repair", safari])
        #expect(again.status == 0 && again.stdout.contains("nothing to change"), "\(again.stdout)")
    }

    /// A tab's state over 2 MiB (24 entries, each with 96 KiB of frame state) comes back within
    /// it, the entries nearest the current (last) one kept whole: Safari restores that history.
    @Test func aDroppedStateIsStoredWithinTheLimit() throws {
        let safari = try Self.copy("\(Self.gallery)/tab-state-dropped")
        defer { try? FileManager.default.removeItem(atPath: parentDirectory(safari)) }
        _ = try CLI.run(["repair", safari])
        let run = try CLI.run(["inspect", "--history", "--format", "json", safari])
        let tabs = (try Self.json(run.stdout)["sessions"] as? [[String: Any]])?.first?["tabs"] as? [[String: Any]] ?? []
        let history = tabs.last?["history"] as? [String: Any]
        let items = history?["items"] as? [[String: Any]] ?? []
        #expect(items.count > 16 && items.count < 24, "\(items.count)")
        #expect(items.last?["url"] as? String == "https://second.example/")
        #expect(try CLI.run(["validate", safari]).status == 0)
    }

    /// A state that does not decode leaves nothing to give back: repair changes nothing (the
    /// finding is one repair leaves, validate still reports it).
    @Test func aStateThatDoesNotDecodeIsLeftAsItIs() throws {
        let safari = try Self.copy("\(Self.gallery)/tab-state-damaged")
        defer { try? FileManager.default.removeItem(atPath: parentDirectory(safari)) }
        let before = try Data(contentsOf: URL(fileURLWithPath: "\(safari)/BrowserState.db"))
        let run = try CLI.run(["repair", safari])
        #expect(run.status == 0 && run.stdout.contains("nothing to change"), "\(run.stdout)")
        #expect(try CLI.run(["validate", safari]).stdout.contains("tab-state-damaged"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(safari)/BrowserState.db")) == before)
        #expect(!FileManager.default.fileExists(atPath: "\(safari)/Backups"))
    }

    /// A backup is read where it is and never written: repair refuses it as no profile.
    @Test func aBackupIsNeverRepaired() throws {
        let backup = try Self.copy("Fixtures/safari-ios/backup")
        defer { try? FileManager.default.removeItem(atPath: parentDirectory(backup)) }
        let listing = try FileManager.default.subpathsOfDirectory(atPath: backup).sorted()
        #expect(try Self.titles(backup).count == 4)
        let run = try CLI.run(["repair", backup])
        #expect(run.status != 0)
        #expect(try FileManager.default.subpathsOfDirectory(atPath: backup).sorted() == listing)
    }

    /// aside push sets the database and its companions aside together, restore puts them back.
    @Test func asideRoundTripsTheThreeFiles() throws {
        let safari = try Self.copy("Fixtures/safari-ios/home/Library/Safari")
        defer { try? FileManager.default.removeItem(atPath: parentDirectory(safari)) }
        let titles = try Self.titles(safari)
        let push = try CLI.run(["aside", "push", safari])
        #expect(push.status == 0, "\(push.stdout)\(push.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(safari)/BrowserState.db"))
        #expect(!FileManager.default.fileExists(atPath: "\(safari)/BrowserState.db-wal"))
        let list = try CLI.run(["aside", "list", safari])
        let entry = try #require(list.stdout.split(separator: "\n").first { $0.contains("browser-state@") }?.split(separator: " ").first)
        let restore = try CLI.run(["aside", "restore", safari, String(entry)])
        #expect(restore.status == 0, "\(restore.stdout)\(restore.stderr)")
        #expect(try Self.titles(safari) == titles)
    }

    /// compress bundles the database with its -wal and -shm; the bundle is read in place as the
    /// directory is (the newest tab, only in the WAL, included), and decompress gives the three
    /// files back as they were.
    @Test func aBundleCarriesTheDatabaseWithItsWAL() throws {
        let dir = try CLI.temporaryDirectory("safari-ios")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let safari = CLI.path("Fixtures/safari-ios/home/Library/Safari")
        let made = try CLI.run(["compress", safari, "-o", "\(dir)/safari.tar.gz"])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(try Self.titles("\(dir)/safari.tar.gz") == Self.titles(safari))
        let back = try CLI.run(["decompress", "\(dir)/safari.tar.gz", "-o", "\(dir)/copy"])
        #expect(back.status == 0, "\(back.stderr)")
        for name in ["BrowserState.db", "BrowserState.db-wal", "BrowserState.db-shm"] {
            #expect(
                FileManager.default.contents(atPath: "\(dir)/copy/\(name)") == FileManager.default.contents(atPath: "\(safari)/\(name)"))
        }
    }

    /// diff tells two databases apart by their tabs; report writes a page of the windows.
    @Test func diffAndReportReadSafari() throws {
        let dir = try CLI.temporaryDirectory("safari-ios")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let diff = try CLI.run([
            "diff", CLI.path("\(Self.gallery)/healthy"), CLI.path("\(Self.gallery)/tab-closed-in-wal"), "--format", "json"
        ])
        #expect(diff.status == 1, "\(diff.stdout)\(diff.stderr)")
        #expect(diff.stdout.contains("https://second.example/"))
        let report = try CLI.run(["report", CLI.path("Fixtures/safari-ios/home"), "-o", "\(dir)/report.html"])
        #expect(report.status == 0, "\(report.stderr)")
        let page = try String(contentsOfFile: "\(dir)/report.html", encoding: .utf8)
        #expect(page.contains("Newest tab") && page.contains("Safari for iOS"))
    }

    /// The private copies SQLite opens are made in TMPDIR and every one is removed: after each
    /// reading command and a repair, a TMPDIR of the run's own is empty again.
    @Test func noPrivateCopyIsLeftBehind() throws {
        let dir = try CLI.temporaryDirectory("safari-ios")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let scratch = "\(dir)/tmp"
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        let safari = try Self.copy("\(Self.gallery)/browser-state-integrity")
        defer { try? FileManager.default.removeItem(atPath: parentDirectory(safari)) }
        for command in [["inspect", "--history"], ["validate"], ["repair", "--dry-run"], ["repair"]] {
            let run = try CLI.run(command + [safari], environment: ["TMPDIR": scratch])
            #expect(run.status == 0 || run.status == 1, "\(command): \(run.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: scratch).isEmpty, "\(command) left a copy")
        }
    }
}
