import FileSystemKit
import TestSupport
import Testing

@testable import ChromiumDesktop
@testable import SessionFormats

/// A rewrite keeps what replay does not model: a window's bounds, app name, workspace, extra
/// data; a tab's user agent override, session storage, GUID, extra data; a saved group's id.
@Suite struct SNSSKeptRecordTests {
    init() { Browsers.install() }

    /// A pickle of an int32 subject and `strings`.
    static func pickle(_ subject: Int32, _ strings: [String]) -> [UInt8] {
        var pickle = PickleWriter()
        pickle.int32(subject)
        for string in strings { pickle.string(string) }
        return pickle.bytes
    }

    /// A user agent override of tab 11: the string and whether it overrides.
    static let userAgent: [UInt8] = {
        var pickle = PickleWriter()
        pickle.int32(11)
        pickle.string("Agent/1.0")
        pickle.bool(true)
        return pickle.bytes
    }()

    /// A saved group's metadata: token, title, colour, collapsed, saved, its saved id.
    static let savedGroup: [UInt8] = {
        var pickle = PickleWriter()
        pickle.uint64(7)
        pickle.uint64(9)
        pickle.string16("Reading")
        pickle.uint32(3)
        pickle.bool(false)
        pickle.bool(true)
        pickle.string("0b8d4f5e-1c2a-4e3b-9f70-6a5d4c3b2a19")
        return pickle.bytes
    }()

    /// The records a file holds, as (id, contents).
    static func records(_ bytes: [UInt8]) -> [(UInt8, [UInt8])] {
        let file = SNSSFile.read(bytes, commands: .session)
        return file.records.map { ($0.id, Array(bytes[$0.contents])) }
    }

    @Test func aRewriteCopiesEveryKeptRecordAndTheLatestOfEachSlot() {
        let oldBounds = [UInt8](repeating: 1, count: 4) + [UInt8](repeating: 0, count: 20)
        let bounds: [UInt8] = [1, 0, 0, 0, 10, 0, 0, 0, 20, 0, 0, 0, 0, 4, 0, 0, 0, 3, 0, 0, 3, 0, 0, 0]
        let kept: [(UInt8, [UInt8])] = [
            (14, bounds), (15, Self.pickle(1, ["_crx_app"])), (23, Self.pickle(1, ["desk-2"])), (32, [1, 0, 0, 0, 1, 0, 0, 0]),
            (34, Self.pickle(1, ["key", "window data"])), (19, Self.pickle(10, ["namespace"])),
            (28, Self.pickle(10, ["6f1c2e3d-4b5a-4697-8877-665544332211"])), (29, Self.userAgent),
            (33, Self.pickle(12, ["key", "tab data"]))
        ]
        let bytes = SNSSTests.file { writer in
            writer.record(14, oldBounds)
            writer.record(27, Self.savedGroup)
            var group = [UInt8](repeating: 0, count: 32)
            group[0] = 10
            group[8] = 7
            group[16] = 9
            group[24] = 1
            writer.record(25, group)
            for (id, contents) in kept { writer.record(id, contents) }
            // Damage, then one more tab: the rewrite is a repair's.
            writer.bytes += [0, 0]
            writer.fixed(0, [1, 13])
            writer.record(6, SNSSTests.navigation(tab: 13, index: 0, url: "https://example.org/13"))
        }
        let salvage = SNSSSessionFile.decode(bytes, type: .session).salvage
        let written = SNSSWriter.fullState(
            of: salvage ?? SNSSReplay.replay(SNSSFile.read([], commands: .session), salvage: true), source: bytes)
        let records = Self.records(written)
        for (id, contents) in kept + [(27, Self.savedGroup)] {
            #expect(records.contains { $0.0 == id && $0.1 == contents }, "record \(id)")
        }
        // The later bounds replaced the earlier ones.
        #expect(!records.contains { $0.0 == 14 && $0.1 == oldBounds })
        // Read back, the same records are kept with the same windows and tabs, and the show state is the bounds'.
        let again = SNSSSessionFile.decode(written, type: .session)
        #expect(again.file.damage.isEmpty && again.chrome?.stops.isEmpty == true)
        #expect(again.chrome?.windows.first?.showState == 3)
        let keptAgain = (again.chrome?.windows ?? []).flatMap { window in
            window.kept.map(\.id) + window.tabs.flatMap { $0.kept.map(\.id) }
        }
        #expect(keptAgain.sorted() == kept.map(\.0).sorted())
    }

    @Test func eachKeptRecordNamesItsTabOrWindow() {
        let bytes = Self.pickle(42, ["x"])
        #expect(SNSSKeptRecord.subject(id: 19, FileBytes(bytes), 0..<bytes.count) == .tab(42))
        #expect(SNSSKeptRecord.subject(id: 15, FileBytes(bytes), 0..<bytes.count) == .window(42))
        #expect(SNSSKeptRecord.subject(id: 32, [5, 0, 0, 0, 1, 0, 0, 0], 0..<8) == .window(5))
        #expect(SNSSKeptRecord.subject(id: 6, FileBytes(bytes), 0..<bytes.count) == nil)
        #expect(SNSSKeptRecord.subject(id: 19, [1, 0], 0..<2) == nil)
    }

    @Test func aPicklesSubjectIsReadAfterItsHeaderWhateverItsSize() {
        // A header of 8 bytes (payload size, then 4 more), then the tab id Chrome reads: 5.
        var bytes: [UInt8] = [8, 0, 0, 0, 7, 0, 0, 0]
        bytes += [5, 0, 0, 0, 0, 0, 0, 0]
        #expect(SNSSKeptRecord.subject(id: 19, FileBytes(bytes), 0..<bytes.count) == .tab(5))
        // A payload size that leaves no whole header names nothing.
        #expect(SNSSKeptRecord.subject(id: 19, [8, 0, 0, 0, 5, 0, 0, 0, 0, 0], 0..<10) == nil)
    }

    @Test func aKeptRecordReadPastAStopMarksNoTabSalvaged() {
        let bytes = SNSSTests.file { writer in
            writer.record(3, [1, 2, 3])  // an id Chrome does not know: its replay stops here
            writer.record(19, Self.pickle(10, ["namespace"]))
        }
        let decoded = SNSSSessionFile.decode(bytes, type: .session)
        let tab = decoded.salvage?.windows.first?.tabs.first { $0.id == 10 }
        #expect(tab?.kept.map(\.id) == [19])
        #expect(tab?.salvaged == false)
    }

    @Test func salvagesOwnWindowTakesAnIdNoWindowOfTheFileHas() {
        // Window 1 holds the tabs; window 2 is active but holds none; tab 13 has no window.
        let bytes = SNSSTests.file { writer in
            writer.fixed(9, [2, 0])
            writer.fixed(20, [2])
            writer.record(6, SNSSTests.navigation(tab: 13, index: 0, url: "https://example.org/13"))
        }
        let salvage = SNSSSessionFile.decode(bytes, type: .session).salvage
        let own = salvage?.windows.last
        #expect(own?.tabs.map(\.id) == [13])
        #expect(own?.id != 2 && own?.id != 1)
        #expect(salvage?.activeWindow != own?.id)
    }
}
