import Foundation
import SessionFormats
import SessionModel
import TestSupport
import Testing

@testable import SessionForensics

/// A tab whose data.pb is lost gets its history back from its state.pb when that is WebKit's
/// session state (Fixtures/webkit), instead of a one-item history from its list entry.
@Suite struct StateHistoryRepairTests {
    init() { Browsers.install() }

    static let tabDirectory = "SessionStorage/6A1E4C2B-9D0F-4B7A-8E3C-2F5D7B9A1C0E/0000000a"

    /// A copy of the gallery's `tab-data-missing` whose lost tab keeps `state` as its state.pb.
    static func profile(state: String) throws -> String {
        let profile = try RepairGalleryTests.copy("tab-data-missing")
        let source = GalleryTests.repository.appendingPathComponent("Fixtures/webkit/\(state)").path
        let target = "\(profile)/\(tabDirectory)/state.pb"
        try FileManager.default.removeItem(atPath: target)
        try FileManager.default.copyItem(atPath: source, toPath: target)
        return profile
    }

    @Test func theBackForwardListComesBackFromStatePB() throws {
        let profile = try Self.profile(state: "with-frame-state.state")
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let state = try #require(FileManager.default.contents(atPath: "\(profile)/\(Self.tabDirectory)/state.pb"))
        let repairer = Repairer(profile: profile, aside: AsideTestSupport.aside(profile))
        let dryRun = try repairer.run(dryRun: true)
        let step = try #require(dryRun.plan.actions.first { $0.rule == .tabDataMissing })
        #expect(step.action.contains("from its state.pb: 3 items, the current one \"https://example.org/form\""), "\(step.action)")

        let result = try repairer.run(dryRun: false)
        #expect(result.isClean, "\(result.remaining.map(\.message))")
        #expect(dryRun.plan.actions == result.plan.actions)
        let data = try #require(FileManager.default.contents(atPath: "\(profile)/\(Self.tabDirectory)/data.pb"))
        let history = try ChromeProtoCodec.decodeTabData([UInt8](data), file: "data.pb")
        #expect(history.items.map(\.url) == ["https://example.org/", "https://example.org/form", "https://www.example.com/after"])
        #expect(history.items.map(\.title) == ["Example Domain", "A form", "After the redirect"])
        #expect(history.lastCommittedIndex == 1)
        // The state it came from still matches it: carried over byte for byte.
        #expect(FileManager.default.contents(atPath: "\(profile)/\(Self.tabDirectory)/state.pb") == state)
        // The list entry shows the current page.
        let session = try SessionReader(input: try InputOpener.open(profile)).readAll(history: false).first { !$0.incognito }
        #expect(session?.tabs.contains { $0.url == "https://example.org/form" && $0.title == "A form" } == true)
        #expect(try repairer.run(dryRun: false).steps.isEmpty, "a second run changes nothing")
    }

    @Test(arguments: ["truncated.state", "version-1.state"])
    func aStateWebKitWouldRefuseLeavesTheOneItemHistory(_ state: String) throws {
        let profile = try Self.profile(state: state)
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let plan = try Repairer(profile: profile, aside: AsideTestSupport.aside(profile)).run(dryRun: true).plan
        let step = try #require(plan.actions.first { $0.rule == .tabDataMissing })
        #expect(step.action.contains("one-item history"), "\(step.action)")
    }
}
