import Foundation
import SessionModel
import TestSupport
import Testing

@testable import SessionFormats

/// Chrome's legacy session.plist: decoding, encoding, and damage reported rather than trapped on.
@Suite struct LegacySessionCodecTests {
    init() { Browsers.install() }

    /// A session using everything the legacy format can hold.
    static func richSession() -> Session {
        let items = [
            NavigationItem(
                url: "https://a.example/", title: "Ä title 😀", timestamp: Timestamp(microseconds: 13_408_173_600_000_001),
                userAgent: .mobile, headers: [HTTPHeader(name: "X-One", value: "1"), HTTPHeader(name: "X-Two", value: "2")]),
            NavigationItem(
                url: "https://a.example/next", virtualURL: "chrome://shown", title: "",
                timestamp: Timestamp(microseconds: 13_408_173_700_000_000), userAgent: .desktop,
                referrer: Referrer(url: "https://a.example/", policy: ReferrerPolicy(rawValue: 8)))
        ]
        let certificate = CertificateRecord(certificate: [0x30, 0x82, 0x01, 0x00], host: "a.example", status: 0x40)
        let first = Tab(
            id: 5, title: "Ä title 😀", url: "https://a.example/", creationTime: Timestamp(microseconds: 13_408_173_500_000_000),
            lastActiveTime: Timestamp(microseconds: 13_408_173_800_000_000), navigationItemCount: 2, pinned: true,
            history: TabHistory(hasOpener: false, userAgent: .automatic, lastCommittedIndex: 0, items: items, certificates: [certificate]),
            stableIdentifier: "6F1C2D3E-0000-4000-8000-00000000ABCD")
        let second = Tab(
            id: 2_147_483_647, title: "", url: "chrome://shown", creationTime: Timestamp(microseconds: 13_408_173_900_000_000),
            navigationItemCount: 2, opener: Opener(index: 0, navigationIndex: 1),
            history: TabHistory(hasOpener: true, userAgent: .desktop, lastCommittedIndex: 1, items: items),
            stableIdentifier: "6F1C2D3E-0000-4000-8000-00000000ABCE")
        let group = TabGroup(
            start: 1, count: 1, title: "Work", color: TabGroupColor(rawValue: 8), collapsed: true,
            id: TabGroupID(high: UInt64.max, low: 10))
        return Session(id: "W", format: .legacy, activeIndex: 1, pinnedCount: 1, tabs: [first, second], groups: [group])
    }

    @Test func encodedSessionDecodesEqual() throws {
        let session = Self.richSession()
        let bytes = LegacySessionCodec.encode(session)
        #expect(try LegacySessionCodec.decodeSession(bytes, id: "W", incognito: false) == session)
    }

    @Test func noSelectionIsWrittenAsNSNotFound() throws {
        var session = Self.richSession()
        session.activeIndex = 7
        let window = try LegacySessionCodec.decodeWindow(LegacySessionCodec.encode(session))
        #expect(window.selectedIndex == 2_147_483_647)
        #expect(window.session(id: "W", incognito: false).activeIndex == -1)
    }

    @Test func missingStableIdentifiersGetFreshUUIDs() throws {
        var session = Self.richSession()
        session.tabs = session.tabs.map {
            var tab = $0
            tab.stableIdentifier = nil
            return tab
        }
        let tabs = try LegacySessionCodec.decodeWindow(LegacySessionCodec.encode(session)).tabs
        let identifiers = tabs.compactMap(\.stableIdentifier)
        #expect(identifiers.count == 2 && Set(identifiers).count == 2)
        #expect(identifiers.allSatisfy { UUID(uuidString: $0) != nil })
    }

    @Test func foundationReadsTheArchive() throws {
        let bytes = LegacySessionCodec.encode(Self.richSession())
        let object = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
        let top = try #require(object as? [String: Any])
        #expect(top["$archiver"] as? String == "NSKeyedArchiver")
        #expect((top["$objects"] as? [Any])?.first as? String == "$null")
        #expect(FoundationPlist.matches(try BinaryPlistReader.read(bytes).value(), object))
    }

    @Test func corpusSampleDecodes() throws {
        let corpus = Corpus.directory
        let path = "\(corpus)/legacy-basic/Sessions/{SyntheticIdentifier}/session.plist"
        let window = try LegacySessionCodec.decodeWindow([UInt8](Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(window.selectedIndex == 2)
        #expect(window.tabs.map(\.uniqueIdentifier) == [1, 7, 12])
        #expect(window.tabs.map(\.pinned) == [true, false, false])
        #expect(window.tabs[1].opener == Opener(index: 0, navigationIndex: 1))
        #expect(window.tabs[2].userAgent == .desktop)
        #expect(window.tabs[0].stableIdentifier == "00000000-0000-4000-8000-000000000001")
    }

    @Test func olderSessionIOSRootAndAliasesDecode() throws {
        var archive = KeyedArchiveBuilder()
        let root = archive.reserve()
        let window = archive.reserve()
        let tab = archive.reserve()
        let item = archive.reserve()
        archive.set(
            item, className: "SessionEntry", ["urlString": .data(Array("https://old.example/".utf8)), "title": .uid(archive.string("Old"))])
        archive.set(
            tab, className: "SessionController",
            [
                "uniqueIdentifier": .integer(3), "currentNavigationIndex": .integer(0),
                "entries": .uid(archive.array([item]))
            ])
        archive.set(window, className: "SessionWindow", ["selectedIndex": .integer(0), "sessions": .uid(archive.array([tab]))])
        archive.set(root, className: "SessionIOS", ["sessionWindows": .uid(archive.array([window]))])
        let bytes = BinaryPlistWriter.encode(archive.finish(root: root))
        let session = try LegacySessionCodec.decodeSession(bytes, id: "old", incognito: false)
        #expect(session.activeIndex == 0)
        #expect(session.tabs.map(\.id) == [3])
        #expect(session.tabs.first?.title == "Old")
        #expect(session.tabs.first?.url == "https://old.example/")
        #expect(session.tabs.first?.history?.userAgent == .automatic)
    }

    /// crw_navigation_item_storage.mm, crw_session_storage.mm, crw_session_certificate_policy_cache_storage.mm:
    /// what Chrome still reads of older items and tabs, and what it reads as missing values.
    @Test func olderKeysAreReadAsChromeReadsThem() throws {
        var archive = KeyedArchiveBuilder()
        let root = archive.reserve()
        let tab = archive.reserve()
        let item = archive.reserve()
        let referrer = archive.reserve()
        let cache = archive.reserve()
        archive.set(referrer, className: "NSURL", ["NS.relative": .uid(archive.string("https://from.example/"))])
        archive.set(
            item, className: "CRWNavigationItemStorage",
            [
                "urlString": .data(Array("https://a.example/".utf8)),
                "referrer": .uid(referrer)
            ])
        let certificate = archive.array([archive.value(.data([0x30, 0x03])), archive.string("a.example"), archive.value(.integer(4))])
        archive.set(
            cache, className: "CRWSessionCertificatePolicyCacheStorage",
            ["allowedCertificates": .uid(archive.array([certificate], className: "NSSet"))])
        let userData = archive.dictionary([("PinnedState", .bool(true)), ("TabId", .string("tab-id-from-user-data"))])
        archive.set(
            tab, className: "CRWSessionStorage",
            [
                "uniqueIdentifier": .integer(3), "lastCommittedItemIndex": .integer(0),
                "entries": .uid(archive.array([item])), "serializedUserData": .uid(userData),
                "certificatePolicyCacheStorage": .uid(cache)
            ])
        archive.set(root, className: "SessionWindowIOS", ["selectedIndex": .integer(0), "sessions": .uid(archive.array([tab]))])
        let window = try LegacySessionCodec.decodeWindow(BinaryPlistWriter.encode(archive.finish(root: root)))
        let decoded = try #require(window.tabs.first)
        #expect(decoded.items.first?.userAgent == UserAgent.none, "a missing userAgentType is NONE")
        #expect(
            decoded.items.first?.referrer == Referrer(url: "https://from.example/", policy: .default),
            "the old NSURL referrer, default policy")
        #expect(decoded.pinned, "a pre-M99 bare user-data dictionary is read")
        #expect(decoded.stableIdentifier == "tab-id-from-user-data", "TabId stands in for a missing stableIdentifier")
        #expect(decoded.certificates == [CertificateRecord(certificate: [0x30, 0x03], host: "a.example", status: 4)])
        #expect(window.retiredClassNames.isEmpty && window.unreadableByChrome == nil)
    }

    /// base/token.cc: group ids are 32 upper-case hex digits; anything else gets a new id.
    @Test func lowerCaseGroupIDsAreNotRead() throws {
        var archive = KeyedArchiveBuilder()
        let root = archive.reserve()
        let upper = archive.reserve()
        let lower = archive.reserve()
        archive.set(
            upper, className: "SessionTabGroup",
            [
                "kRangeStartKey": .integer(0), "kRangeCountKey": .integer(1),
                "kTabGroupIdKey": .uid(archive.string("00000000000000A10000000000000B02"))
            ])
        archive.set(
            lower, className: "SessionTabGroup",
            [
                "kRangeStartKey": .integer(0), "kRangeCountKey": .integer(1),
                "kTabGroupIdKey": .uid(archive.string("00000000000000a10000000000000b02"))
            ])
        archive.set(
            root, className: "SessionWindowIOS",
            [
                "selectedIndex": .integer(0), "sessions": .uid(archive.array([])),
                "tabGroups": .uid(archive.array([upper, lower]))
            ])
        let window = try LegacySessionCodec.decodeWindow(BinaryPlistWriter.encode(archive.finish(root: root)))
        #expect(window.groups.map(\.id) == [TabGroupID(high: 0xA1, low: 0xB02), nil])
    }

    /// Archives a window whose pieces a test can spoil.
    static func archive(_ build: (inout KeyedArchiveBuilder, UInt64) -> Void) -> [UInt8] {
        var archive = KeyedArchiveBuilder()
        let root = archive.reserve()
        build(&archive, root)
        return BinaryPlistWriter.encode(archive.finish(root: root))
    }

    static func damage(_ bytes: [UInt8]) throws -> (offset: Int, reason: String) {
        do {
            _ = try LegacySessionCodec.decodeWindow(bytes)
        } catch {
            if case .damaged(_, let offset, let reason) = error { return (offset, reason) }
            throw error
        }
        Issue.record("decoded without error")
        return (-1, "")
    }

    @Test func referenceCycleIsDamage() throws {
        let bytes = Self.archive { archive, root in
            archive.set(root, className: "SessionWindowIOS", ["sessions": .uid(archive.array([root]))])
        }
        #expect(try Self.damage(bytes).reason.contains("cycle"))
    }

    @Test func badReferenceIsDamage() throws {
        let bytes = Self.archive { archive, root in
            archive.set(root, className: "SessionWindowIOS", ["sessions": .uid(archive.array([9_999]))])
        }
        let damage = try Self.damage(bytes)
        #expect(damage.reason.contains("9999"))
        #expect(damage.offset > 8 && damage.offset < bytes.count)
    }

    @Test func wrongTypesAreDamage() throws {
        let stringIndex = Self.archive { archive, root in
            archive.set(root, className: "SessionWindowIOS", ["selectedIndex": .uid(archive.string("two"))])
        }
        #expect(try Self.damage(stringIndex).reason.contains("selectedIndex"))
        let wrongClass = Self.archive { archive, root in
            let other = archive.reserve()
            archive.set(other, className: "SessionTabGroup", [:])
            archive.set(root, className: "SessionWindowIOS", ["sessions": .uid(archive.array([other]))])
        }
        #expect(try Self.damage(wrongClass).reason.contains("expected CRWSessionStorage"))
        let stringRoot = BinaryPlistWriter.encode(
            .dictionary([
                "$archiver": .string("NSKeyedArchiver"), "$version": .integer(100_000),
                "$top": .dictionary(["root": .uid(1)]), "$objects": .array([.string("$null"), .string("not a window")])
            ]))
        #expect(try Self.damage(stringRoot).reason.contains("expected an archived object"))
        let notAnArchive = BinaryPlistWriter.encode(.dictionary(["hello": .string("world")]))
        #expect(try Self.damage(notAnArchive).reason.contains("NSKeyedArchiver"))
    }

    @Test func damagedCorpusBytesNeverTrap() throws {
        for path in Corpus.legacyPlists() {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            for position in bytes.indices {
                for replacement: UInt8 in [0xFF, bytes[position] &+ 1] {
                    var damaged = bytes
                    damaged[position] = replacement
                    _ = try? LegacySessionCodec.decodeWindow(damaged)
                }
            }
            for length in stride(from: 0, to: bytes.count, by: 7) {
                #expect(throws: FormatError.self) { try LegacySessionCodec.decodeWindow(Array(bytes[0..<length])) }
            }
        }
    }
}
