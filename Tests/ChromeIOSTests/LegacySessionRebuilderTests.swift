import Foundation
import SessionFormats
import SessionModel
import TestSupport
import Testing

@_spi(Fuzzing) @testable import ChromeIOS
@_spi(Fuzzing) @testable import SessionForensics

/// The rewrite of a legacy session (LegacySessionRebuilder) on hundreds of awkward windows: the
/// result validates without a finding repair acts on, a second rebuild changes nothing, and every
/// tab with an entry is still there, with its entries and its stable identifier.
@Suite struct LegacySessionRebuilderTests {
    init() { Browsers.install() }

    static let plist = "Sessions/S/session.plist"

    /// What repair acts on in a profile holding `window` as its one legacy session.
    static func findings(_ window: LegacyWindow, in profile: String) throws -> [Finding] {
        try FileManager.default.createDirectory(atPath: "\(profile)/Sessions/S", withIntermediateDirectories: true)
        try Data(LegacySessionCodec.encode(window)).write(to: URL(fileURLWithPath: "\(profile)/\(plist)"))
        return Validator().validate(try InputOpener.open(profile)).findings.filter(\.needsRepair)
    }

    @Test func rebuiltWindowsValidateAndKeepEveryTab() throws {
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("legacy-rebuild-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: profile) }
        var rewritten = 0
        for (number, generated) in LegacyRepairsAgreementTests.windows().enumerated() {
            var window = generated
            for index in window.tabs.indices {
                window.tabs[index].stableIdentifier = "STABLE-\(number)-\(index)"
                window.tabs[index].items = window.tabs[index].items.indices.map {
                    NavigationItem(url: "https://a.example/\(number)/\(index)/\($0)")
                }
            }
            // The window as its session.plist gives it back.
            let stored = try LegacySessionCodec.decodeWindow(LegacySessionCodec.encode(window))
            let before = try Self.findings(stored, in: profile)
            var rebuilder = LegacySessionRebuilder(id: "S", incognito: false, file: Self.plist)
            guard let repaired = rebuilder.rebuild(stored) else {
                #expect(before.isEmpty, "window \(number): findings but no rewrite: \(before.map(\.message))")
                continue
            }
            rewritten += 1
            #expect(rebuilder.actions.allSatisfy { $0.file == Self.plist && $0.session == "S" })
            #expect(
                Set(before.map(\.rule.name)).isSubset(of: Set(rebuilder.actions.map(\.rule.name))),
                "window \(number): \(before.map(\.message)) / \(rebuilder.actions.map(\.action))")
            let reread = try LegacySessionCodec.decodeWindow(LegacySessionCodec.encode(repaired))
            #expect(try Self.findings(reread, in: profile).isEmpty, "window \(number)")
            var again = LegacySessionRebuilder(id: "S", incognito: false, file: Self.plist)
            #expect(again.rebuild(reread) == nil, "window \(number): \(again.actions.map(\.action))")
            for tab in stored.tabs where !tab.items.isEmpty {
                #expect(
                    reread.tabs.contains { $0.stableIdentifier == tab.stableIdentifier && $0.items.map(\.url) == tab.items.map(\.url) },
                    "window \(number): \(tab.stableIdentifier ?? "-") is gone")
            }
        }
        #expect(rewritten > 100)
    }

    /// A tab with one entry and a stored id.
    static func tab(_ id: Int64?, _ path: String) -> LegacyTab {
        LegacyTab(
            uniqueIdentifier: id, stableIdentifier: "STABLE-\(path)", lastCommittedItemIndex: 0,
            items: [NavigationItem(url: "https://a.example/\(path)")])
    }

    @Test func aFreshIDAvoidsIDsUsedElsewhereOnTheSide() {
        var rebuilder = LegacySessionRebuilder(id: "S", incognito: false, file: Self.plist, reserved: [6, 8])
        let window = LegacyWindow(selectedIndex: 0, tabs: [Self.tab(5, "a"), Self.tab(5, "b"), Self.tab(7, "c")])
        let repaired = rebuilder.rebuild(window)
        #expect(repaired?.tabs.map(\.uniqueIdentifier) == [5, 9, 7])
        #expect(rebuilder.actions.map(\.rule.name) == ["tab-id-duplicate"])
        #expect(rebuilder.actions.first?.action == "give tab 1 the new id #9")
    }

    /// Past Int32.max the id Chrome's reader gives wraps to 1; a tab that stored 1 keeps it.
    @Test func theTabThatStoredAnIDKeepsIt() {
        var rebuilder = LegacySessionRebuilder(id: "S", incognito: false, file: Self.plist)
        let window = LegacyWindow(selectedIndex: 0, tabs: [Self.tab(Int64(Int32.max), "a"), Self.tab(nil, "b"), Self.tab(1, "c")])
        let ids = rebuilder.rebuild(window)?.tabs.map(\.uniqueIdentifier) ?? []
        #expect(ids.count == 3 && ids[0] == Int64(Int32.max) && ids[2] == 1)
        #expect(ids[1].map { $0 > 1 && $0 < Int64(Int32.max) } == true)
        #expect(rebuilder.actions.contains { $0.rule.name == "legacy-tab-id-invalid" && $0.action.hasPrefix("give tab 1 the new id #") })
    }

    /// A tab without a stable identifier gets one derived from the session and tab ids: the same
    /// in every run, a UUID in form, and another for another tab.
    @Test func aMissingStableIdentifierIsDerived() throws {
        var window = LegacyWindow(selectedIndex: 9, tabs: [Self.tab(5, "a"), Self.tab(6, "b")])
        window.tabs[0].stableIdentifier = nil
        window.tabs[1].stableIdentifier = nil
        func rebuilt() -> [String?] {
            var rebuilder = LegacySessionRebuilder(id: "S", incognito: false, file: Self.plist)
            return rebuilder.rebuild(window)?.tabs.map(\.stableIdentifier) ?? []
        }
        let first = rebuilt()
        #expect(first == rebuilt() && first.count == 2 && first[0] != first[1])
        let uuid = try #require(first[0])
        #expect(uuid.count == 36 && uuid == uuid.uppercased() && Array(uuid)[14] == "4")
        #expect(uuid.split(separator: "-").map(\.count) == [8, 4, 4, 4, 12])
    }
}
