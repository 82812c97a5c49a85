import Foundation
import TestSupport
import Testing

@testable import FirefoxIOS
@testable import SessionFormats

/// Legacy tab archives no Firefox wrote: the reader throws a `FormatError` for a file it cannot
/// read at all, skips a tab it cannot read, and never traps, recurses without bound or hangs.
@Suite struct FirefoxLegacyHostileTests {
    init() { Browsers.install() }

    /// A keyed archive whose `$top.tabs` is what `build` returns, its `$objects` those it adds.
    static func archive(_ build: (inout KeyedArchiveBuilder) -> PlistValue) -> [UInt8] {
        var builder = KeyedArchiveBuilder()
        let tabs = build(&builder)
        return BinaryPlistWriter.encode(
            .dictionary([
                "$archiver": .string("NSKeyedArchiver"), "$version": .integer(100_000), "$top": .dictionary(["tabs": tabs]),
                "$objects": .array(builder.objects)
            ]))
    }

    /// A `SavedTab` of a few fields, its `url` the object `url` when given.
    static func savedTab(_ builder: inout KeyedArchiveBuilder, url: UInt64? = nil, more: [String: PlistValue] = [:]) -> UInt64 {
        let uid = builder.reserve()
        var fields: [String: PlistValue] = ["isSelected": .bool(true), "isPrivate": .bool(false), "title": .uid(builder.string("T"))]
        if let url { fields["url"] = .uid(url) }
        builder.set(uid, className: "Client.SavedTab", fields.merging(more) { $1 })
        return uid
    }

    static func isDamage(_ bytes: [UInt8]) -> Bool {
        do {
            _ = try FirefoxLegacyArchive.decode(bytes, file: "a")
            return false
        } catch {
            if case .damaged(let file, let offset, _) = error { return file == "a" && (0...bytes.count).contains(offset) }
            return false
        }
    }

    @Test func emptyAndRandomBytesAreDamage() {
        #expect(Self.isDamage([]))
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        for length in [1, 7, 8, 40, 41, 300, 4096] {
            var bytes: [UInt8] = []
            for _ in 0..<length {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                bytes.append(UInt8(truncatingIfNeeded: seed >> 56))
            }
            #expect(Self.isDamage(bytes), "\(length) random bytes")
            #expect(Self.isDamage(Array("bplist00".utf8) + bytes), "bplist00 and \(length) random bytes")
        }
    }

    @Test func aPropertyListThatIsNoTabArchiveIsNotASession() {
        let chrome = BinaryPlistWriter.encode(KeyedArchiveBuilder().finish(root: 0))
        let plain = BinaryPlistWriter.encode(.dictionary(["tabs": .array([])]))
        for bytes in [chrome, plain] {
            #expect {
                try FirefoxLegacyArchive.decode(bytes, file: "a")
            } throws: { error in
                if case .notASession(let path, _) = error as? FormatError { return path == "a" }
                return false
            }
        }
    }

    @Test func tabsThatIsNoArrayIsDamage() {
        let cases: [(inout KeyedArchiveBuilder) -> PlistValue] = [
            { .uid($0.string("tabs")) },
            { _ in .integer(3) },
            { _ in .uid(0) },
            { _ in .uid(999) },
            { builder in .uid(Self.savedTab(&builder)) },
            { builder in .uid(builder.dictionary([("tabs", .string("x"))])) }
        ]
        for (index, build) in cases.enumerated() {
            #expect(Self.isDamage(Self.archive(build)), "case \(index)")
        }
    }

    @Test func elementsThatAreNoTabsAreSkippedOneByOne() throws {
        let bytes = Self.archive { builder in
            let dictionary = builder.dictionary([
                ("isSelected", .bool(true)), ("isPrivate", .bool(false)), ("hasHomeScreenshot", .bool(false)), ("title", .string("Kept"))
            ])
            let url = builder.reserve()
            builder.set(url, className: "NSURL", ["NS.relative": .uid(builder.string("https://a.example/"))])
            return .uid(builder.array([builder.string("a string"), 0, dictionary, url]))
        }
        let archive = try FirefoxLegacyArchive.decode(bytes, file: "a")
        #expect(archive.shape == .codable && archive.tabs.map(\.title) == ["Kept"])
        #expect(
            archive.damage.map(\.reason) == [
                "tabs[0]: a string, not a tab", "tabs[1]: $null, not a tab", "tabs[3]: an NSURL object, not a SavedTab or a dictionary"
            ])
        #expect(!archive.loadsInFirefox && archive.refusal?.hasPrefix("damaged at byte") == true)
    }

    @Test func selfReferencesAreDamageOrReadNeverARecursion() throws {
        // A URL that is its own base, an array that holds itself, a tab that is its own session
        // data and whose history holds itself, a Codable URL dictionary that is its own base.
        let bytes = Self.archive { builder in
            let url = builder.reserve()
            builder.set(url, className: "NSURL", ["NS.relative": .uid(builder.string("a")), "NS.base": .uid(url)])
            let looping = Self.savedTab(&builder, url: url)
            let array = builder.reserve()
            let itself = builder.reserve()
            let list = builder.array([itself])
            builder.set(itself, className: "Client.SavedTab", ["sessionData": .uid(itself), "urls": .uid(list), "isSelected": .bool(false)])
            let relative = builder.reserve()
            builder.set(
                relative, className: "NSDictionary",
                [
                    "NS.keys": .array([.uid(builder.string("relative")), .uid(builder.string("base"))]),
                    "NS.objects": .array([.uid(builder.string("b")), .uid(relative)])
                ])
            let codable = builder.dictionary([("url", .uid(relative)), ("isSelected", .bool(false))])
            builder.set(array, className: "NSArray", ["NS.objects": .array([.uid(looping), .uid(array), .uid(itself), .uid(codable)])])
            return .uid(array)
        }
        let archive = try FirefoxLegacyArchive.decode(bytes, file: "a")
        #expect(archive.tabs.count == 1 && archive.tabs[0].urls.isEmpty && archive.tabs[0].url == nil)
        #expect(archive.damage.count == 3)
        #expect(archive.damage[0].reason.contains("URL bases nested deeper than 8"))
        #expect(archive.damage[1].reason.contains("NSArray object, not a SavedTab"))
        #expect(archive.damage[2].reason.contains("URL bases nested deeper than 8"))
    }

    @Test func deepNestingIsDamage() throws {
        var deep = PlistValue.array([])
        for _ in 0..<600 { deep = .array([deep]) }
        let nested = Self.archive { builder in
            _ = builder.value(deep)
            return .uid(builder.array([]))
        }
        #expect(Self.isDamage(nested))
        // A chain of 100 distinct URLs, each relative to the next: the tab is skipped.
        let chain = Self.archive { builder in
            var base: UInt64 = 0
            for index in 0..<100 {
                let url = builder.reserve()
                builder.set(url, className: "NSURL", ["NS.relative": .uid(builder.string("p\(index)/")), "NS.base": .uid(base)])
                base = url
            }
            return .uid(builder.array([Self.savedTab(&builder, url: base)]))
        }
        let archive = try FirefoxLegacyArchive.decode(chain, file: "a")
        #expect(archive.tabs.isEmpty && archive.damage.count == 1)
    }

    /// 3,000 references to one tab whose history is 3,000 references to one URL: some 12 KB that
    /// a reader following every reference expands to 9 million URLs.
    @Test func sharedReferencesPastTheBudgetAreDamage() {
        let bytes = Self.archive { builder in
            let url = builder.reserve()
            builder.set(url, className: "NSURL", ["NS.relative": .uid(builder.string("https://a.example/"))])
            let list = builder.array(Array(repeating: url, count: 3_000))
            let session = builder.reserve()
            builder.set(session, className: "Client.SessionData", ["urls": .uid(list), "currentPage": .integer(0)])
            let tab = Self.savedTab(&builder, url: url, more: ["sessionData": .uid(session)])
            return .uid(builder.array(Array(repeating: tab, count: 3_000)))
        }
        #expect(bytes.count < 20_000)
        #expect {
            try FirefoxLegacyArchive.decode(bytes, file: "a")
        } throws: { error in
            if case .damaged(_, _, let reason) = error as? FormatError { return reason.contains("expand past") }
            return false
        }
    }

    @Test func everyCutAndEveryByteChangedIsReadOrDamageNeverATrap() throws {
        for name in ["tabsState.archive", "codableTabsState.archive"] {
            let bytes = try FirefoxLegacyArchiveTests.bytes(name)
            for length in 0..<bytes.count {
                _ = try? FirefoxLegacyArchive.decode(Array(bytes[..<length]), file: name)
            }
            for position in bytes.indices {
                var changed = bytes
                changed[position] ^= 0xA5
                _ = try? FirefoxLegacyArchive.decode(changed, file: name)
            }
        }
    }
}
