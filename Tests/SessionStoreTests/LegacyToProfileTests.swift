import Foundation
import SessionFormats
import SessionModel
import SessionStore
import TestSupport
import Testing

/// A session read from the legacy format, written by the store as an optimized profile.
@Suite struct LegacyToProfileTests {
    init() { Browsers.install() }

    @Test func legacySessionWrittenAsOptimizedReadsBack() throws {
        let items = [
            NavigationItem(
                url: "https://a.example/", title: "A", timestamp: Timestamp(microseconds: 13_408_173_600_000_000), userAgent: .mobile)
        ]
        let tab = Tab(
            id: 4, title: "A", url: "https://a.example/", creationTime: Timestamp(microseconds: 13_408_173_500_000_000),
            navigationItemCount: 1, pinned: true,
            history: TabHistory(userAgent: .desktop, lastCommittedIndex: 0, items: items))
        let original = Session(id: "S", activeIndex: 0, pinnedCount: 1, tabs: [tab])
        let legacy = try LegacySessionCodec.decodeSession(LegacySessionCodec.encode(original), id: "S", incognito: false)
        #expect(legacy.format == .legacy)

        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("legacy-store-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: profile) }
        var optimized = legacy
        optimized.format = .optimized
        try ProfileWriter().write(optimized, profile: profile)

        let read = try SessionReader(input: InputOpener.open(profile)).readAll(history: true)
        #expect(read.count == 1)
        var expected = legacy
        expected.format = .optimized
        expected.tabs = expected.tabs.map {
            var tab = $0
            tab.stableIdentifier = nil
            return tab
        }
        #expect(read.first == expected)
    }
}
