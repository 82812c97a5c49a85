import FileSystemKit
import Foundation
import SafariIOS
import SessionForensics
import SessionFormats
import SessionModel
import TestSupport
import Testing

/// What the pages of a BrowserState.db hold beyond what SQLite reads: every tab of a file SQLite
/// refuses, and the tabs Safari closed whose rows are left under a newer page in the WAL, each
/// marked salvaged.
struct BrowserStateSalvageTests {
    init() { Browsers.install() }

    private func sessions(_ gallery: String) throws -> [Session] {
        try SessionReader(input: try InputOpener.open(Repository.path("Fixtures/safari-ios/gallery/\(gallery)"))).readAll(history: true)
    }

    /// The file's magic is overwritten: SQLite refuses it, Safari reads nothing, and every tab is
    /// read from its pages with its history, marked salvaged, as validate says.
    @Test func aFileSQLiteRefusesIsReadFromItsPages() throws {
        let all = try sessions("browser-state-refused")
        let window = try #require(all.first)
        #expect(window.id == "5A0C7E1B-2D3F-4A5B-8C9D-0E1F2A3B4C5D")
        #expect(window.tabs.map(\.title) == ["First", "Second"])
        #expect(window.tabs.allSatisfy { $0.salvaged })
        #expect(window.tabs.map { $0.history?.items.first?.url } == ["https://first.example/", "https://second.example/"])
        let input = try InputOpener.open(Repository.path("Fixtures/safari-ios/gallery/browser-state-refused"))
        let finding = try #require(BrowserRulebooks.validate(input).findings.first)
        #expect(finding.message.hasSuffix("2 tabs can be read from its pages (inspect)"))
    }

    /// A tab closed after the last checkpoint: SQLite reads the WAL's page without it; the main
    /// file's older page still holds its row, which comes back as a salvaged closed tab.
    @Test func aTabClosedInTheWALComesBackFromTheOlderPage() throws {
        let all = try sessions("tab-closed-in-wal")
        let window = try #require(all.first)
        #expect(window.tabs.map(\.title) == ["First"])
        #expect(window.tabs.allSatisfy { !$0.salvaged })
        #expect(window.closedTabs.map(\.title) == ["Second"])
        #expect(window.closedTabs.allSatisfy { $0.salvaged })
        #expect(window.closedTabs.first?.history?.items.map(\.url) == ["https://second.example/"])
    }

    /// A database SQLite reads whole holds nothing more: no tab is salvaged.
    @Test func aSoundDatabaseHasNothingToSalvage() throws {
        let sessions = try SessionReader(input: try InputOpener.open(BrowserStateFixtureTests.home)).readAll(history: false)
        #expect(sessions.flatMap { $0.tabs + $0.closedTabs }.allSatisfy { !$0.salvaged })
        #expect(sessions.first?.closedTabs.isEmpty == true)
    }

    /// The column names of Safari's CREATE TABLE statements, constraints left out.
    @Test func columnsAreReadFromTheSchema() {
        let sql = """
            CREATE TABLE browser_windows (id INTEGER PRIMARY KEY AUTOINCREMENT, uuid TEXT NOT NULL, type INTEGER DEFAULT 0,
              scene_ID TEXT, "quoted" TEXT DEFAULT (lower('X')), UNIQUE(uuid, type))
            """
        #expect(BrowserStateSalvage.columns(of: sql) == ["id", "uuid", "type", "scene_ID", "quoted"])
        #expect(BrowserStateSalvage.columns(of: "CREATE TABLE") == [])
        #expect(BrowserStateSalvage.isUUID("5A0C7E1B-2D3F-4A5B-8C9D-0E1F2A3B4C5D"))
        #expect(!BrowserStateSalvage.isUUID("5A0C7E1B-2D3F-4A5B-8C9D-0E1F2A3B4C5"))
        #expect(!BrowserStateSalvage.isUUID("5A0C7E1B+2D3F-4A5B-8C9D-0E1F2A3B4C5D"))
    }

    /// Any bytes, and any bytes after an SQLite header, scan without a trap and make no tab (a
    /// tab needs a row whose key is a UUID, which noise does not write).
    @Test func garbageScansToNoTab() {
        var generator = SplitMix64(seed: 3)
        for round in 0..<200 {
            var bytes = (0..<Int(generator.next() % 9000)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            if round % 2 == 0 { bytes = Array("SQLite format 3\0".utf8) + [0x02, 0x00] + bytes }
            let found = BrowserStateSalvage.scan(database: bytes, wal: round % 3 == 0 ? bytes : nil)
            #expect(found.tabs.isEmpty)
            #expect(found.windows.isEmpty)
        }
    }

    /// A real database with bytes changed anywhere: the scan never traps and never invents a
    /// tab; it finds at most the tabs the database holds, each one of them (or its UUID with
    /// some of the changed bytes in it), and an unchanged file gives them all.
    @Test func aDamagedDatabaseGivesOnlyItsOwnTabs() throws {
        let path = Repository.path("Fixtures/safari-ios/gallery/healthy/BrowserState.db")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let whole = BrowserStateSalvage.scan(database: bytes, wal: nil).tabs.map { Array($0.uuid.utf8) }
        #expect(whole.count >= 2)
        var generator = SplitMix64(seed: 11)
        for _ in 0..<60 {
            var damaged = bytes
            let changes = Int(1 + generator.next() % 16)
            for _ in 0..<changes {
                damaged[Int(generator.next() % UInt64(damaged.count))] = UInt8(truncatingIfNeeded: generator.next())
            }
            let found = BrowserStateSalvage.scan(database: damaged, wal: nil).tabs.map { Array($0.uuid.utf8) }
            #expect(found.count <= whole.count)
            for uuid in found {
                let nearest = whole.map { original in zip(original, uuid).count { $0 != $1 } }.min() ?? .max
                #expect(nearest <= changes, "\(String(decoding: uuid, as: UTF8.self)) is none of the database's tabs")
            }
        }
    }

    /// A page pointing at one cell hundreds of times, its overflow chain looping on one page:
    /// each cell is read once, the chain ends where it comes back, and the scan holds no more
    /// than a few times the input (it would hold gigabytes otherwise).
    @Test func cellsPointedAtOftenAndLoopingChainsStayBounded() {
        let pageSize = 512
        var file = [UInt8](repeating: 0, count: 3 * pageSize)
        file.replaceSubrange(0..<16, with: Array("SQLite format 3\0".utf8))
        file[16] = 0x02  // 512-byte pages
        // Page 2: a table leaf of 200 cells, every pointer at offset 300.
        let page = pageSize
        file[page] = 0x0D
        file[page + 3] = 0
        file[page + 4] = 200
        for index in 0..<200 {
            file[page + 8 + 2 * index] = UInt8(300 >> 8)
            file[page + 9 + 2 * index] = UInt8(300 & 0xFF)
        }
        // The cell: a payload of 60,000 bytes (varint 0x83 0xD4 0x60), rowid 1; its local part
        // ends with the overflow page 3, which names itself as the next.
        let cell = page + 300
        file.replaceSubrange(cell..<cell + 4, with: [0x83, 0xD4, 0x60, 0x01])
        let usable = pageSize
        let minLocal = (usable - 12) * 32 / 255 - 23
        let local = minLocal + (60_000 - minLocal) % (usable - 4)
        let localEnd = cell + 4 + (local <= usable - 35 ? local : minLocal)
        file.replaceSubrange(localEnd..<localEnd + 4, with: [0, 0, 0, 3])
        file.replaceSubrange(2 * pageSize..<2 * pageSize + 4, with: [0, 0, 0, 3])
        let found = BrowserStateSalvage.scan(database: file, wal: nil)
        #expect(found.tabs.isEmpty)
    }
}
