import CSQLite
import FileSystemKit
import Foundation
import SafariIOS
import SessionForensics
import SessionFormats
import SessionModel
import TestSupport
import Testing

/// What validate says of a BrowserState.db Safari would not restore whole: a file SQLite
/// refuses, one whose integrity check fails (Safari closes it), a tab whose stored state does
/// not decode, one over 2 MiB (Safari drops it); each made from the fixture, checkpointed into a
/// single file, then damaged.
struct BrowserStateDamageTests {
    init() { Browsers.install() }

    /// A checkpointed copy of the fixture's database in a new directory, changed by `sql` when
    /// given; returns the directory (Safari's).
    private func copy(_ sql: [(String, [UInt8]?)] = []) throws -> String {
        let directory = NSTemporaryDirectory() + "safari-damage-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for suffix in ["", "-wal", "-shm"] {
            try FileManager.default.copyItem(
                atPath: joinPath(BrowserStateFixtureTests.home, BrowserStateFixtureTests.database) + suffix,
                toPath: joinPath(directory, "BrowserState.db") + suffix)
        }
        var database: OpaquePointer?
        #expect(sqlite3_open(joinPath(directory, "BrowserState.db"), &database) == SQLITE_OK)
        defer { sqlite3_close(database) }
        for (statement, blob) in sql + [("PRAGMA wal_checkpoint(TRUNCATE)", nil), ("PRAGMA journal_mode=DELETE", nil)] {
            var prepared: OpaquePointer?
            #expect(sqlite3_prepare_v2(database, statement, -1, &prepared, nil) == SQLITE_OK)
            if let blob {
                _ = blob.withUnsafeBytes { bytes in
                    sqlite3_bind_blob(
                        prepared, 1, bytes.baseAddress, Int32(bytes.count), unsafeBitCast(-1, to: sqlite3_destructor_type.self))
                }
            }
            while sqlite3_step(prepared) == SQLITE_ROW {}
            sqlite3_finalize(prepared)
        }
        return directory
    }

    private func findings(_ directory: String) throws -> [Finding] {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        return BrowserRulebooks.validate(try InputOpener.open(directory)).findings
    }

    @Test func aFileSQLiteRefusesLosesTheSession() throws {
        let directory = try copy()
        let path = joinPath(directory, "BrowserState.db")
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes.replaceSubrange(0..<16, with: [UInt8](repeating: 0x41, count: 16))
        try bytes.write(to: URL(fileURLWithPath: path))
        let found = try findings(directory)
        #expect(found.map(\.rule.name) == ["browser-state-refused"])
        #expect(found.first?.message.contains("SQLite refuses it") == true)
    }

    @Test func aFailedIntegrityCheckLosesTheSessionAndSaysWhatCanBeRead() throws {
        let directory = try copy()
        let path = joinPath(directory, "BrowserState.db")
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        // The header's count of free pages, which the integrity check compares with the free list.
        bytes[39] = 5
        try bytes.write(to: URL(fileURLWithPath: path))
        let found = try findings(directory)
        #expect(found.map(\.rule.name) == ["browser-state-integrity"])
        #expect(found.first?.message.hasSuffix("5 tabs can be read from it") == true)
    }

    @Test func aTabWhoseStateDoesNotDecodeComesBackWithoutHistory() throws {
        let garbage = AppleLZ4.compressedMagic + [0xFF, 0xFF, 0x0F, 0x00, 8, 0, 0, 0] + [UInt8](repeating: 0xF0, count: 8)
        let directory = try copy([
            ("UPDATE tab_sessions SET session_data = ?, uncompressed_session_data_size = 1048575 WHERE tab_uuid LIKE 'A1%1'", garbage)
        ])
        let found = try findings(directory)
        #expect(found.map(\.rule.name) == ["tab-state-damaged"])
        #expect(found.first?.tab?.index == 0)
    }

    @Test func aStateOverTwoMebibytesIsDroppedBySafariButStillRead() throws {
        let state = WebKitSessionState(
            entries: [
                .init(url: "https://big.example/", title: String(repeating: "b", count: 2 << 20), originalURL: "https://big.example/")
            ],
            currentIndex: 0)
        let (data, size) = SafariTabState.encode(state)
        #expect(size > 2 << 20)
        let directory = try copy([
            ("UPDATE tab_sessions SET session_data = ?, uncompressed_session_data_size = \(size) WHERE tab_uuid LIKE 'A1%3'", data)
        ])
        let input = try InputOpener.open(directory)
        let tabs = try SessionReader(input: input).readAll(history: true).first?.tabs ?? []
        #expect(tabs.count == 4)
        #expect(tabs.first { $0.title == "Private page" }?.history?.items.first?.url == "https://big.example/")
        let found = try findings(directory)
        #expect(found.map(\.rule.name) == ["tab-state-dropped"])
    }
}
