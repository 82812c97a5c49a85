import FileSystemKit
import Foundation
import SafariIOS
import SessionForensics
import SessionFormats
import SessionModel
import TestSupport
import Testing

/// Safari for iOS's BrowserState.db as Fixtures/safari-ios/make-fixtures writes it with Python's
/// sqlite3 and plistlib: found from a home directory, read through SQLite on a private copy (the
/// newest tab lives only in the -wal file), every window and tab, each tab's history (stored
/// plain, or over 1 MiB as an LZ4 stream), the evidence untouched.
struct BrowserStateFixtureTests {
    static let home = Repository.path("Fixtures/safari-ios/home")
    static let database = "Library/Safari/BrowserState.db"

    init() { Browsers.install() }

    @Test func aHomeDirectoryIsReadAsSafarisProfile() throws {
        let input = try InputOpener.open(Self.home)
        #expect(input.browser == "safari-ios")
        #expect(input.kind == .profile)
        #expect(input.profileFoundInside == "Library/Safari")
        let sessions = try SessionReader(input: input).readAll(history: true)
        #expect(sessions.count == 1)
        let window = try #require(sessions.first)
        #expect(window.id == "5A0C7E1B-2D3F-4A5B-8C9D-0E1F2A3B4C5D")
        #expect(window.tabs.map(\.title) == ["Example Domain", "Long read", "Private page", "Newest tab"])
        #expect(window.tabs.map(\.incognito) == [false, false, true, false])
        // The selected regular tab is the second regular one.
        #expect(window.activeIndex == 1)
        #expect(window.tabs[0].history?.items.map(\.url) == ["https://example.org/", "https://example.com/"])
        #expect(window.tabs[0].history?.lastCommittedIndex == 1)
        // Stored as an LZ4 stream: its title of over 1 MiB is whole.
        let long = try #require(window.tabs[1].history?.items.last)
        #expect(long.title.utf8.count == "Long read ".utf8.count + (1 << 20))
        // Only in the WAL.
        #expect(window.tabs[3].url == "https://newest.example/")
        #expect(window.tabs[3].history?.items.count == 1)
        // 2026-03-01 12:00:00 UTC, stored as seconds since 2001.
        #expect(window.tabs[0].lastActiveTime == Timestamp(unixMicroseconds: 1_772_366_400_000_000))
        #expect(window.closedWindows.map { $0.tabs.map(\.url) } == [["https://closed.example/"]])
    }

    @Test func theDatabaseAloneAndSafarisDirectoryAreFoundToo() throws {
        let alone = try InputOpener.open(joinPath(Self.home, Self.database))
        #expect(alone.browser == "safari-ios")
        #expect(alone.kind == .file)
        let directory = try InputOpener.open(joinPath(Self.home, "Library/Safari"))
        #expect(directory.kind == .profile)
        #expect(directory.profileFoundInside == nil)
        #expect(try SessionReader(input: directory).readAll(history: false).first?.tabs.count == 4)
    }

    /// An unencrypted iTunes or Finder backup (Fixtures/safari-ios/backup: the same files at their
    /// HomeDomain file IDs beside Manifest.db) is read as the home directory is, WAL included; it is
    /// no profile a command changes.
    @Test func aBackupIsReadWhereItIsAndNeverAsAProfile() throws {
        let backup = try InputOpener.open(Repository.path("Fixtures/safari-ios/backup"))
        #expect(backup.browser == "safari-ios")
        #expect(backup.kind == .storageDirectory)
        #expect(backup.sessions.map(\.id) == ["BrowserState.db"])
        let fromBackup = try SessionReader(input: backup).readAll(history: true)
        let fromHome = try SessionReader(input: try InputOpener.open(Self.home)).readAll(history: true)
        #expect(fromBackup == fromHome)
        #expect(fromBackup.first?.tabs.last?.title == "Newest tab")
    }

    /// SQLite only ever opens a private copy: the evidence's bytes, names and times are as they
    /// were (that no scratch copy is left behind is SafariIOSCommandTests', with a private TMPDIR).
    @Test func theEvidenceIsNeverOpenedInPlace() throws {
        let directory = joinPath(Self.home, "Library/Safari")
        func state() throws -> [String: (Data, Date)] {
            var files: [String: (Data, Date)] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
                let path = joinPath(directory, name)
                let modified = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date ?? .distantPast
                files[name] = (try Data(contentsOf: URL(fileURLWithPath: path)), modified)
            }
            return files
        }
        let before = try state()
        _ = try SessionReader(input: try InputOpener.open(Self.home)).readAll(history: true)
        _ = BrowserRulebooks.validate(try InputOpener.open(Self.home))
        let after = try state()
        #expect(Set(after.keys) == Set(before.keys))
        for (name, file) in before {
            #expect(after[name]?.0 == file.0, "\(name) changed")
            #expect(after[name]?.1 == file.1, "\(name) was touched")
        }
    }

    @Test func aSoundDatabaseHasNoFinding() throws {
        let report = BrowserRulebooks.validate(try InputOpener.open(Self.home))
        #expect(report.findings.isEmpty)
        #expect(report.browser == "safari-ios")
        #expect(report.tabs == 4)
    }
}
