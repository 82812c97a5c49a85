import Foundation
import SessionModel
import TestSupport
import Testing

@testable import SessionFormats

/// Shared references in a keyed archive: each object is decoded once, and what the references
/// expand to (objects, and bytes of strings and data) is bounded by the size of the file.
@Suite struct LegacyExpansionTests {
    init() { Browsers.install() }

    /// A window of `tabs` references to one tab whose entries hold `entries` references to one
    /// navigation item with a URL of `urlBytes` bytes: a few KB that expand to tabs x entries items.
    static func bomb(tabs: Int, entries: Int, urlBytes: Int = 20) -> [UInt8] {
        var archive = KeyedArchiveBuilder()
        let root = archive.reserve()
        let tab = archive.reserve()
        let item = archive.reserve()
        let url = Array("https://a.example/".utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: max(0, urlBytes - 18))
        archive.set(item, className: "CRWNavigationItemStorage", ["urlString": .data(url), "timestamp": .integer(1)])
        archive.set(
            tab, className: "CRWSessionStorage",
            [
                "uniqueIdentifier": .integer(1), "lastCommittedItemIndex": .integer(0),
                "entries": .uid(archive.array(Array(repeating: item, count: entries)))
            ])
        archive.set(
            root, className: "SessionWindowIOS",
            [
                "selectedIndex": .integer(0),
                "sessions": .uid(archive.array(Array(repeating: tab, count: tabs)))
            ])
        return BinaryPlistWriter.encode(archive.finish(root: root))
    }

    /// The reason of the damage decoding `bytes` reports, or nil when it decodes.
    static func damage(_ bytes: [UInt8]) -> String? {
        do {
            _ = try LegacySessionCodec.decodeWindow(bytes)
            return nil
        } catch {
            if case .damaged(_, _, let reason) = error { return reason }
            return error.description
        }
    }

    @Test func tabsSharingOneTabOfSharedEntriesAreRefused() {
        // 1,000 x 1,000: a million items from about 2 KB.
        let bytes = Self.bomb(tabs: 1_000, entries: 1_000)
        #expect(bytes.count < 4_096)
        let reason = Self.damage(bytes)
        #expect(reason?.contains("its object references expand past") == true, "\(reason ?? "decoded")")
        #expect(reason?.contains("objects") == true && reason?.contains("hostile or damaged") == true)
    }

    @Test func oneLongURLSharedByManyTabsIsRefused() {
        // 1,500 entries of one 64 KB URL: fewer objects than any budget, but 96 MiB of text.
        let bytes = Self.bomb(tabs: 1_500, entries: 1, urlBytes: 64 << 10)
        let reason = Self.damage(bytes)
        #expect(reason?.contains("its object references expand past") == true, "\(reason ?? "decoded")")
        #expect(reason?.contains("bytes") == true)
    }

    @Test func budgetGrowsWithTheFile() {
        let small = ExpansionBudget(storedSize: 100)
        let large = ExpansionBudget(storedSize: 400_000_000)
        #expect(small.maxObjects == ExpansionBudget.baseObjects + 100 / ExpansionBudget.storedBytesPerObject)
        #expect(large.maxObjects == 50_000 + 25_000_000)
        #expect(large.maxBytes == (64 << 20) + 1_600_000_000)
    }

    /// Sharing within the budget reads as if every reference had its own copy: two tabs sharing a
    /// title string, and one tab object listed twice, decode like the same tabs stored apart.
    @Test func sharedObjectsWithinBudgetDecodeLikeCopies() throws {
        func window(sharingTab: Bool) throws -> LegacyWindow {
            var archive = KeyedArchiveBuilder()
            let root = archive.reserve()
            let title = archive.string("Shared title")
            var tabs: [UInt64] = []
            for index in 0..<(sharingTab ? 2 : 3) {
                let tab = archive.reserve()
                let item = archive.reserve()
                archive.set(
                    item, className: "CRWNavigationItemStorage",
                    [
                        "urlString": .data(Array("https://a.example/\(index % 2)".utf8)),
                        "title": .uid(title), "timestamp": .integer(7)
                    ])
                archive.set(
                    tab, className: "CRWSessionStorage",
                    [
                        "uniqueIdentifier": .integer(Int64(1 + index % 2)), "lastCommittedItemIndex": .integer(0),
                        "entries": .uid(archive.array([item, item]))
                    ])
                tabs.append(tab)
            }
            if sharingTab { tabs.append(tabs[0]) }
            archive.set(root, className: "SessionWindowIOS", ["selectedIndex": .integer(2), "sessions": .uid(archive.array(tabs))])
            return try LegacySessionCodec.decodeWindow(BinaryPlistWriter.encode(archive.finish(root: root)))
        }
        let shared = try window(sharingTab: true)
        let apart = try window(sharingTab: false)
        #expect(shared.tabs.count == 3)
        #expect(shared.tabs[2] == shared.tabs[0])
        func withoutOffsets(_ window: LegacyWindow) -> [LegacyTab] {
            window.tabs.map {
                var tab = $0
                tab.offset = 0
                return tab
            }
        }
        #expect(withoutOffsets(shared) == withoutOffsets(apart))
        #expect(shared.tabs.allSatisfy { $0.items.map(\.title) == ["Shared title", "Shared title"] })
        #expect(
            shared.session(id: "S", incognito: false).tabs.map(\.url) == [
                "https://a.example/0", "https://a.example/1", "https://a.example/0"
            ])
    }

    /// Past the fixed part of the budget, a file that shares nothing still decodes: 2,000 tabs of
    /// 75 entries each (Chrome's most) is 158,000 objects.
    @Test func largeArchiveWithoutSharingDecodes() throws {
        var archive = KeyedArchiveBuilder()
        let root = archive.reserve()
        var tabs: [UInt64] = []
        for tabIndex in 0..<2_000 {
            let tab = archive.reserve()
            var items: [UInt64] = []
            for itemIndex in 0..<ProfileLayout.maxNavigationItems {
                let item = archive.reserve()
                archive.set(
                    item, className: "CRWNavigationItemStorage",
                    ["urlString": .data(Array("https://e.example/\(tabIndex)/\(itemIndex)".utf8)), "timestamp": .integer(Int64(itemIndex))])
                items.append(item)
            }
            archive.set(
                tab, className: "CRWSessionStorage",
                [
                    "uniqueIdentifier": .integer(Int64(tabIndex + 1)), "lastCommittedItemIndex": .integer(0),
                    "entries": .uid(archive.array(items))
                ])
            tabs.append(tab)
        }
        archive.set(root, className: "SessionWindowIOS", ["selectedIndex": .integer(0), "sessions": .uid(archive.array(tabs))])
        let window = try LegacySessionCodec.decodeWindow(BinaryPlistWriter.encode(archive.finish(root: root)))
        #expect(window.tabs.count == 2_000)
        #expect(window.tabs.reduce(0) { $0 + $1.items.count } == 150_000)
    }
}
