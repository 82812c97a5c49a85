import Foundation
import SessionFormats
import SessionModel
import SessionStore
import TestSupport
import Testing

/// Completing interrupted set-asides never removes a live session, even one whose files equal an
/// entry's (a window set aside and then written again the same, as a migration there and back does).
@Suite struct SetAsideLiveSessionTests {
    init() { Browsers.install() }

    @Test func liveSessionEqualToAnEntryStays() throws {
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("set-aside-live-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let items = [
            NavigationItem(
                url: "https://a.example/", title: "A", timestamp: Timestamp(microseconds: 13_408_173_600_000_000), userAgent: .mobile)
        ]
        let session = Session(
            id: "S", activeIndex: 0,
            tabs: [
                Tab(
                    id: 3, title: "A", url: "https://a.example/", navigationItemCount: 1,
                    history: TabHistory(lastCommittedIndex: 0, items: items))
            ])
        let writer = ProfileWriter()
        try writer.write(session, profile: profile)
        let setAside = SessionSetAside(writer: AtomicWriter(), profile: profile)
        _ = try setAside.push(
            SessionKey(id: "S", incognito: false), reason: "test", time: Timestamp(unixMicroseconds: 1_795_000_000_000_000))
        try writer.write(session, profile: profile)

        _ = try setAside.completeInterruptedEntries()
        let live = try SessionReader(input: InputOpener.open(profile)).readAll(history: true)
        #expect(live.map(\.id) == ["S"])
        #expect(live.first?.tabs.map(\.id) == [3])
    }
}
