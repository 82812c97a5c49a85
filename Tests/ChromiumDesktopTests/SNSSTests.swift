import FileSystemKit
import Foundation
import TestSupport
import Testing

@testable import ChromiumDesktop
@testable import SessionFormats

/// Chromium desktop's SNSS files: the record framing, the pickle, replay as Chrome does it
/// (expectations of Chromium's command_storage_backend and session_service_commands unit tests)
/// and as salvage does it, and the full state a repair writes.
@Suite struct SNSSTests {
    init() { Browsers.install() }

    /// A navigation command's contents for `tab` at `index`.
    static func navigation(tab: Int32, index: Int32, url: String, title: String = "t") -> [UInt8] {
        SNSSNavigation(
            tab: tab, index: index, url: url, title: title, transition: 0, referrer: "", originalRequestURL: "", timestamp: 0,
            httpStatus: 0, record: nil
        ).contents(in: [])
    }

    /// A file of one window (id 1, normal) of tabs 10, 11, 12 with one navigation each, with the
    /// marker after the full state; `extra` records after the marker.
    static func file(_ extra: (inout SNSSWriter) -> Void = { _ in }) -> [UInt8] {
        var writer = SNSSWriter()
        writer.fixed(9, [1, 0])
        for (position, tab) in [Int32(10), 11, 12].enumerated() {
            writer.fixed(0, [1, tab])
            writer.record(6, navigation(tab: tab, index: 0, url: "https://example.org/\(tab)"))
            writer.fixed(2, [tab, Int32(position)])
        }
        writer.record(SNSSFile.markerID, [])
        extra(&writer)
        return writer.bytes
    }

    static func urls(_ replay: SNSSReplay?) -> [[String]] {
        replay?.windows.map { $0.tabs.map { $0.navigations[$0.selectedPosition].url } } ?? []
    }

    @Test func aPickleReadsAlignedFieldsAndRefusesWhatIsNotThere() {
        var writer = PickleWriter()
        writer.int32(-5)
        writer.string("abc")
        writer.string16("é😀")
        writer.int64(1 << 40)
        writer.bool(true)
        let bytes = writer.bytes
        #expect(bytes.count % 4 == 0)
        // A reader holds no reference to its bytes: they are held here while it reads.
        let held = FileBytes(bytes)
        var reader = PickleReader(held, 0..<bytes.count)
        #expect(reader?.int32() == -5)
        #expect(reader?.string() == "abc")
        #expect(reader?.string16() == "é😀")
        #expect(reader?.int64() == 1 << 40)
        #expect(reader?.bool() == true)
        #expect(reader?.int32() == nil)
        // A header that claims more than is there, or leaves a header not a multiple of 4.
        #expect(PickleReader([255, 0, 0, 0, 1, 2, 3, 4], 0..<8) == nil)
        #expect(PickleReader([0, 0, 0, 0, 1, 2], 0..<6) == nil)
        // A negative length fails the read.
        let negativeBytes: FileBytes = [4, 0, 0, 0, 255, 255, 255, 255]
        var negative = PickleReader(negativeBytes, 0..<8)
        #expect(negative?.string() == nil)
        withExtendedLifetime((held, negativeBytes)) {}
    }

    @Test func aWholeFileReadsAsChromeReadsIt() {
        let decoded = SNSSSessionFile.decode(Self.file(), type: .session)
        #expect(decoded.file.header == .plain(version: 3))
        #expect(decoded.file.damage.isEmpty && decoded.file.markerIndex != nil)
        #expect(Self.urls(decoded.chrome) == [["https://example.org/10", "https://example.org/11", "https://example.org/12"]])
        #expect(decoded.usableForLastSession && decoded.readByChrome)
    }

    /// command_storage_backend: a record of size zero, or a size past the end, ends the read;
    /// what came before is kept. Salvage reads on where records line up again.
    @Test func damageEndsChromesReadAndSalvageReadsOn() {
        let bytes = Self.file { writer in
            writer.bytes += [0, 0]
            writer.fixed(0, [1, 13])
            writer.record(6, Self.navigation(tab: 13, index: 0, url: "https://example.org/13"))
            writer.fixed(2, [13, 3])
        }
        let decoded = SNSSSessionFile.decode(bytes, type: .session)
        #expect(decoded.file.damage.map(\.kind) == [.sizeZero])
        #expect(decoded.file.damage.first?.resumedAt == (decoded.file.damage.first?.offset ?? 0) + 2)
        #expect(Self.urls(decoded.chrome).joined().count == 3)
        #expect(Self.urls(decoded.salvage).joined().last == "https://example.org/13")
        #expect(decoded.salvage?.windows.first?.tabs.last?.salvaged == true)

        // Cut in the middle of a navigation: Chrome keeps what came before; salvage reads its URL.
        var cut = Self.file { writer in
            writer.fixed(0, [1, 14])
            writer.record(6, Self.navigation(tab: 14, index: 0, url: "https://example.org/14", title: "a long title"))
        }
        cut.removeLast(8)
        let cutDecoded = SNSSSessionFile.decode(cut, type: .session)
        #expect(cutDecoded.file.damage.map(\.kind) == [.pastEnd])
        #expect(Self.urls(cutDecoded.chrome).joined().count == 3)
        // Never given a visual index, it comes first, as Chrome sorts such tabs.
        #expect(Self.urls(cutDecoded.salvage).joined().first == "https://example.org/14")
        #expect(cutDecoded.salvage?.windows.first?.tabs.first?.navigations.first?.title == "a long title")
        // A lone byte at the end.
        #expect(SNSSSessionFile.decode(Self.file() + [7], type: .session).file.damage.map(\.kind) == [.incomplete])
    }

    /// session_service_commands: an id no Chrome writes stops replay; what came before is restored.
    @Test func anUnknownCommandStopsChromesReplayOnly() {
        let bytes = Self.file { writer in
            writer.record(250, [1, 2, 3])
            writer.fixed(0, [1, 15])
            writer.record(6, Self.navigation(tab: 15, index: 0, url: "https://example.org/15"))
        }
        let decoded = SNSSSessionFile.decode(bytes, type: .session)
        #expect(decoded.chrome?.stops.first?.id == 250 && decoded.chrome?.stops.first?.unparsable == nil)
        #expect(Self.urls(decoded.chrome).joined().count == 3)
        #expect(Self.urls(decoded.salvage).joined().count == 4)
        // A known command of the wrong size does too.
        let wrongSize = SNSSSessionFile.decode(Self.file { $0.record(0, [1, 2, 3]) }, type: .session)
        #expect(wrongSize.chrome?.stops.first?.unparsable != nil)
    }

    /// Pruning removes navigations and renumbers the later ones; a closed tab is erased; tabs go
    /// by visual index; a selected index past the last selects the last.
    @Test func replayFollowsChromesRules() {
        var writer = SNSSWriter()
        writer.fixed(9, [1, 0])
        writer.fixed(0, [1, 20])
        for index in Int32(0)..<5 { writer.record(6, Self.navigation(tab: 20, index: index, url: "https://example.org/20/\(index)")) }
        writer.fixed(7, [20, 4])
        // Remove 1 and 2: 3 and 4 become 1 and 2; the selection moves with them.
        writer.record(24, withUnsafeBytes(of: Int32(20).littleEndian, Array.init) + [1, 0, 0, 0, 2, 0, 0, 0])
        writer.fixed(0, [1, 21])
        writer.record(6, Self.navigation(tab: 21, index: 0, url: "https://example.org/21"))
        writer.fixed(2, [21, 0])
        writer.fixed(2, [20, 1])
        writer.fixed(7, [21, 9])
        writer.fixed(0, [1, 22])
        writer.record(6, Self.navigation(tab: 22, index: 0, url: "https://example.org/22"))
        writer.record(16, withUnsafeBytes(of: Int32(22).littleEndian, Array.init) + [UInt8](repeating: 0, count: 12))
        // A tab in no window, and a window never typed.
        writer.record(6, Self.navigation(tab: 23, index: 0, url: "https://example.org/23"))
        writer.fixed(0, [2, 24])
        writer.record(6, Self.navigation(tab: 24, index: 0, url: "https://example.org/24"))
        writer.record(SNSSFile.markerID, [])
        let decoded = SNSSSessionFile.decode(writer.bytes, type: .session)
        let chrome = decoded.chrome
        #expect(Self.urls(chrome) == [["https://example.org/21", "https://example.org/20/4"]])
        #expect(chrome?.windows.first?.tabs.last?.navigations.map(\.index) == [0, 1, 2])
        #expect(chrome?.tabsWithoutWindow.map(\.id) == [23])
        #expect(chrome?.windowsDropped.map(\.id) == [2])
        // Salvage keeps the untyped window and puts the window-less tab in one of its own.
        #expect(Self.urls(decoded.salvage).joined().sorted().suffix(2) == ["https://example.org/23", "https://example.org/24"])
    }

    /// What repair writes reads whole, and Chrome restores from it every tab salvage read, in
    /// order, with the same selections, navigations copied byte for byte.
    @Test func theFullStateReadsBackAsSalvageReadIt() {
        let bytes = Self.file { writer in
            writer.bytes += [0, 0]
            writer.fixed(0, [1, 13])
            writer.record(6, Self.navigation(tab: 13, index: 4, url: "https://example.org/13"))
            writer.fixed(7, [13, 4])
        }
        let salvage = SNSSSessionFile.decode(bytes, type: .session).salvage
        let written = SNSSWriter.fullState(
            of: salvage ?? SNSSReplay.replay(SNSSFile.read([], commands: .session), salvage: true), source: bytes)
        let again = SNSSSessionFile.decode(written, type: .session)
        #expect(again.file.damage.isEmpty && again.file.markerIndex != nil && again.chrome?.stops.isEmpty == true)
        #expect(Self.urls(again.chrome) == Self.urls(salvage))
        let original = Self.navigation(tab: 13, index: 4, url: "https://example.org/13")
        #expect(again.file.records.contains { again.file.bytes[$0.contents].elementsEqual(original) })
    }

    @Test func headersChromeDoesNotReadAreNamed() {
        #expect(SNSSFile.read(SNSSFile.signature + [4, 0, 0, 0, 9, 9], commands: .session).header == .encrypted(version: 4))
        #expect(SNSSFile.read(SNSSFile.signature + [9, 0, 0, 0], commands: .session).header == .unknownVersion(9))
        #expect(SNSSFile.read(Array("SNS".utf8), commands: .session).header == .notSNSS)
        let old = SNSSSessionFile.decode(SNSSFile.signature + [1, 0, 0, 0] + Self.file().dropFirst(8), type: .session)
        #expect(old.usableForLastSession && !old.readByChrome)
        let unmarked = SNSSSessionFile.decode(Array(Self.file().dropLast(3)), type: .session)
        #expect(!unmarked.usableForLastSession)
    }

    /// A session file large enough to be mapped, cut shorter once it is: its decoding is marked
    /// as made of bytes the file no longer holds, and the read names the file unreadable.
    @Test func aMappedSessionFileCutWhileReadIsUnreadable() throws {
        let root = NSTemporaryDirectory() + "snss-cut-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root + "/Sessions", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let bytes = Self.file { writer in
            for tab in Int32(100)..<Int32(4100) {
                writer.fixed(0, [1, tab])
                writer.record(6, Self.navigation(tab: tab, index: 0, url: "https://example.org/" + String(repeating: "p", count: 300)))
            }
        }
        let path = root + "/Sessions/Session_13400000000000000"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let tree = ReadableTree.disk(root)
        let whole = try tree.readBytes("Sessions/Session_13400000000000000")
        let decoded = SNSSSessionFile.decode(whole, type: .session)
        #expect(decoded.salvage?.windows.first?.tabs.count == 4003)
        #expect(SNSSFileRead.cutWhileRead(decoded, path: path) == nil)
        // Read again while no test holds every slot of the mapping guard (MappingSlots).
        let mapped = try MappingSlots.shared { try tree.readBytes("Sessions/Session_13400000000000000") }
        #expect(mapped.isMapped)
        #expect(truncate(path, off_t(bytes.count / 2)) == 0)
        let cut = SNSSSessionFile.decode(mapped, type: .session)
        #expect(SNSSFileRead.cutWhileRead(cut, path: path) != nil)
    }

    /// The one-pass replay of a whole file gives what the two replays give, on every gallery file.
    @Test func oneReplayOfAWholeFileIsBothReplays() throws {
        let gallery = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/chromium-desktop/gallery")
        var whole = 0
        for case let url as URL in FileManager.default.enumerator(at: gallery, includingPropertiesForKeys: nil) ?? .init()
        where url.lastPathComponent.hasPrefix("Session_") {
            let file = SNSSFile.read([UInt8](try Data(contentsOf: url)), commands: .session)
            // What the reader notes as it reads is what the records say.
            #expect(file.readByChrome == (file.records.firstIndex(where: \.salvaged) ?? file.records.count), "\(url.path)")
            #expect(file.markerIndex == file.records[..<file.readByChrome].firstIndex { $0.id == SNSSFile.markerID }, "\(url.path)")
            let both = SNSSReplay.replays(file)
            #expect(both.chrome == SNSSReplay.replay(file, salvage: false), "\(url.path)")
            #expect(both.salvage == SNSSReplay.replay(file, salvage: true), "\(url.path)")
            // A file with the marker and no damage or command Chrome stops at takes the one pass.
            if file.markerIndex != nil, SNSSReplay.isWhole(file, commands: SNSSReplay.decodeCommands(file)) { whole += 1 }
        }
        #expect(whole > 5)
    }

    /// A navigation read from a file decodes its strings and later fields when asked: what it
    /// gives is what an eager reading of its pickle gives, on every navigation of every gallery file and on
    /// strings that are not ASCII (a lone surrogate becomes U+FFFD, bad UTF-8 is repaired).
    @Test func navigationStringsDecodedLaterAreThoseOfAnEagerReading() throws {
        let gallery = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/chromium-desktop/gallery")
        var files = [Self.file()]
        for case let url as URL in FileManager.default.enumerator(at: gallery, includingPropertiesForKeys: nil) ?? .init()
        where url.lastPathComponent.hasPrefix("Session_") {
            files.append([UInt8](try Data(contentsOf: url)))
        }
        var pickle = PickleWriter()
        pickle.int32(3)
        pickle.int32(0)
        pickle.data(Array("https://b\u{00E9}b\u{00E9}.example/\u{1F600}".utf8) + [0xFF])
        // Five UTF-16 units: a surrogate pair, A, a lone high surrogate, é (then padding).
        pickle.int32(5)
        for pair: UInt32 in [0xDE00_D83D, 0xD800_0041, 0x0000_00E9] { pickle.uint32(pair) }
        pickle.data([])
        pickle.int32(1)
        pickle.int32(0)
        pickle.string("https://referrer.example/")
        pickle.int32(0)
        pickle.string("https://original.example/\u{00FC}")
        files.append(Self.file { $0.record(6, pickle.bytes) })
        var compared = 0
        for bytes in files {
            let file = SNSSFile.read(bytes, commands: .session)
            for record in file.records where record.id == 6 {
                guard let lazy = SNSSNavigation.decode(file.bytes, record.contents), var eager = PickleReader(file.bytes, record.contents)
                else {
                    continue
                }
                _ = eager.int32()
                _ = eager.int32()
                #expect(lazy.url == eager.string())
                #expect(lazy.title == eager.string16())
                _ = eager.data()
                #expect(lazy.transition == eager.int32())
                let hasMask = eager.int32() != nil
                #expect(lazy.referrer == (hasMask ? eager.string() ?? "" : ""))
                _ = eager.int32()
                #expect(lazy.originalRequestURL == (hasMask ? eager.string() ?? "" : ""))
                if hasMask {
                    _ = eager.bool()
                    #expect(lazy.timestamp == eager.int64() ?? 0)
                    _ = eager.string16()
                    #expect(lazy.httpStatus == eager.int32() ?? 0)
                }
                var changed = lazy
                changed.title = "changed"
                #expect(changed.url == lazy.url && changed.title == "changed" && changed.referrer == lazy.referrer)
                #expect(changed != lazy)
                compared += 1
            }
        }
        #expect(compared > 20)
        let unusual = SNSSFile.read(files[files.count - 1], commands: .session).records.last { $0.id == 6 }
        let navigation = unusual.flatMap { SNSSNavigation.decode(FileBytes(files[files.count - 1]), $0.contents) }
        #expect(navigation?.url == "https://b\u{00E9}b\u{00E9}.example/\u{1F600}\u{FFFD}")
        #expect(navigation?.title == "\u{1F600}A\u{FFFD}\u{00E9}")
        #expect(navigation?.referrer == "https://referrer.example/")
        #expect(navigation?.originalRequestURL == "https://original.example/\u{00FC}")
        // Without the transition, the last field Chromium requires, there is no navigation.
        var short = PickleWriter()
        short.int32(3)
        short.int32(0)
        short.string("https://example.org/")
        short.string16("t")
        short.data([])
        #expect(SNSSNavigation.decode(FileBytes(short.bytes), 0..<short.bytes.count) == nil)
        short.int32(0)
        #expect(SNSSNavigation.decode(FileBytes(short.bytes), 0..<short.bytes.count)?.transition == 0)
    }

    @Test func namesAreReadAsChromeReadsThem() {
        #expect(ChromiumDesktopLayout.parse("Session_13397000000000000")?.time == 13_397_000_000_000_000)
        #expect(ChromiumDesktopLayout.parse("Tabs_1")?.type == .tabs)
        #expect(ChromiumDesktopLayout.parse("Session_") == nil)
        #expect(ChromiumDesktopLayout.parse("Session_1_2") == nil)
        #expect(ChromiumDesktopLayout.parse("Other_1") == nil)
        #expect(ChromiumDesktopLayout.type(ofName: "Current Session") == .session)
    }
}

/// Where Chromium's replay stops part-way, or keeps windows by the file's service.
@Suite struct SNSSReplayStopTests {
    init() { Browsers.install() }

    /// A pruning of no navigations stops Chrome's replay (`count <= 0`), as a negative index does.
    @Test(arguments: [(Int32(0), Int32(0)), (Int32(-1), Int32(1))])
    func aPruningOfNothingStopsReplay(index: Int32, count: Int32) {
        let bytes = SNSSTests.file { writer in
            writer.fixed(24, [10, index, count])
            writer.fixed(0, [1, 15])
            writer.record(6, SNSSTests.navigation(tab: 15, index: 0, url: "https://example.org/15"))
        }
        let decoded = SNSSSessionFile.decode(bytes, type: .session)
        #expect(decoded.chrome?.stops.first?.id == 24 && decoded.chrome?.stops.first?.unparsable != nil)
        #expect(SNSSTests.urls(decoded.chrome).joined().count == 3)
        #expect(SNSSTests.urls(decoded.salvage).joined().count == 4)
    }

    /// A saved group without its id: Chrome sets its title, colour and collapsed state, then stops.
    @Test func aSavedGroupWithoutItsIDKeepsItsMetadata() {
        let token = SNSSToken(high: 7, low: 9)
        let bytes = SNSSTests.file { writer in
            var contents = withUnsafeBytes(of: Int32(10).littleEndian, Array.init) + [0, 0, 0, 0]
            contents += withUnsafeBytes(of: token.high.littleEndian, Array.init) + withUnsafeBytes(of: token.low.littleEndian, Array.init)
            contents += [1, 0, 0, 0, 0, 0, 0, 0]
            writer.record(25, contents)
            var pickle = PickleWriter()
            pickle.uint64(token.high)
            pickle.uint64(token.low)
            pickle.string16("Saved")
            pickle.uint32(3)
            pickle.bool(true)
            pickle.bool(true)
            writer.record(27, pickle.bytes)
        }
        let decoded = SNSSSessionFile.decode(bytes, type: .session)
        #expect(decoded.chrome?.stops.first?.id == 27)
        #expect(decoded.chrome?.groups[token]?.title == "Saved" && decoded.chrome?.groups[token]?.color == 3)
    }

    /// An Apps_ file keeps app windows (the app session service's), a Session_ file does not.
    @Test func appWindowsAreKeptInAppsFiles() {
        var writer = SNSSWriter()
        writer.fixed(9, [1, 2])
        writer.fixed(0, [1, 10])
        writer.record(6, SNSSTests.navigation(tab: 10, index: 0, url: "https://app.example/"))
        writer.record(SNSSFile.markerID, [])
        #expect(SNSSTests.urls(SNSSSessionFile.decode(writer.bytes, type: .apps).chrome) == [["https://app.example/"]])
        #expect(SNSSSessionFile.decode(writer.bytes, type: .session).chrome?.windows.isEmpty == true)
    }
}

extension SNSSReplay {
    /// Whether Chrome reads every record of `file` and replays every command (the marker aside):
    /// no damage, no cut record, no unknown or unparsable command.
    /// (The test's own definition of the files `replays` takes in one pass.)
    static func isWhole(_ file: SNSSFile, commands: [SNSSSessionCommand.Decoded]) -> Bool {
        guard file.damage.isEmpty, file.cutRecord == nil else { return false }
        for (record, decoded) in zip(file.records, commands) where record.id != SNSSFile.markerID {
            if case .command = decoded { continue }
            return false
        }
        return true
    }
}
