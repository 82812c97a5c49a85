import FileSystemKit
import Foundation
import SessionFormats
import SessionModel
import SessionStore
import TestSupport
import Testing

@testable import ChromeIOS
@testable import SessionForensics

/// Migrating between Chrome's formats: nothing lost either way, the source set aside, the result clean.
@Suite struct MigratorTests {
    init() { Browsers.install() }

    typealias Support = MigrationTestSupport

    @Test func legacyToOptimizedAndBackKeepsEveryTab() throws {
        let profile = try Support.makeLegacyProfile()
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let original = try Support.liveSessions(profile)
        #expect(original.map(\.format) == [.legacy, .legacy, .legacy])
        let originalFiles = AsideTestSupport.snapshot(profile)

        let migrator = Support.migrator(profile)
        let toOptimized = try migrator.apply(migrator.plan(to: .optimized))
        #expect(toOptimized.setAside.count == 3)
        let optimized = try Support.liveSessions(profile)
        #expect(optimized.map(\.format) == [.optimized, .optimized, .optimized])
        #expect(Support.comparable(optimized) == Support.comparable(original))
        #expect(try Support.problems(profile) == [])
        // The legacy tree is set aside byte for byte, web state files included; nothing else of it stays.
        let now = AsideTestSupport.snapshot(profile)
        for (path, data) in originalFiles {
            #expect(
                now.contains {
                    $0.key.hasPrefix("Backups/") || $0.key.hasPrefix("OTR/Backups/")
                        ? $0.value == data && $0.key.hasSuffix(lastPathComponent(path)) : false
                },
                "\(path) set aside")
        }
        #expect(!now.keys.contains { $0.hasPrefix("Sessions/") || $0.hasPrefix("OTR/Sessions/") || $0.hasPrefix("Web_Sessions/") })
        // Chrome's migration links the legacy web state as the tab's state.pb.
        let state = "SessionStorage/\(Support.window)/00000002/state.pb"
        #expect(now[state] == Data("web state of tab 2".utf8))

        let toLegacy = try migrator.apply(migrator.plan(to: .legacy))
        #expect(toLegacy.written.count == 3)
        let legacy = try Support.liveSessions(profile)
        #expect(legacy.map(\.format) == [.legacy, .legacy, .legacy])
        #expect(Support.comparable(legacy) == Support.comparable(original))
        #expect(try Support.problems(profile) == [])
        #expect(legacy.flatMap(\.tabs).allSatisfy { $0.stableIdentifier.flatMap(UUID.init(uuidString:)) != nil })
    }

    @Test func optimizedFixtureToLegacyAndBack() throws {
        let profile = try Support.copyOfHealthyProfile()
        defer { try? FileManager.default.removeItem(atPath: profile) }
        // The fixture's inactive window has no active tab and a tab never active: Chrome's reader
        // selects tab 0 and dates the tab to its creation once they are in the legacy format.
        let original = Support.asReadFromLegacy(try Support.liveSessions(profile))
        let migrator = Support.migrator(profile)
        let plan = try migrator.plan(to: .legacy)
        _ = try migrator.apply(plan)
        #expect(Support.comparable(try Support.liveSessions(profile)) == Support.comparable(original))
        #expect(try Support.problems(profile) == [])
        _ = try migrator.apply(migrator.plan(to: .optimized))
        #expect(Support.comparable(try Support.liveSessions(profile)) == Support.comparable(original))
        #expect(try Support.problems(profile) == [])
    }

    @Test func alreadyInTheTargetFormatIsNothingToDo() throws {
        let profile = try Support.makeLegacyProfile()
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let before = AsideTestSupport.snapshot(profile)
        let plan = try Support.migrator(profile).plan(to: .legacy)
        #expect(plan.isEmpty)
        _ = try Support.migrator(profile).apply(plan)
        #expect(AsideTestSupport.snapshot(profile) == before)
    }

    @Test func damagedLegacySessionStopsBeforeAnythingIsTouched() throws {
        let profile = try Support.makeLegacyProfile()
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let file = "\(profile)/Sessions/\(Support.window)-Inactive/session.plist"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        try bytes.prefix(bytes.count - 40).write(to: URL(fileURLWithPath: file))
        let before = AsideTestSupport.snapshot(profile)
        #expect(throws: FormatError.self) { try Support.migrator(profile).plan(to: .optimized) }
        #expect(AsideTestSupport.snapshot(profile) == before)
    }

    @Test func unreadableHistoryStopsMigrationToLegacy() throws {
        let profile = try Support.copyOfHealthyProfile()
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let session = try #require(try FileManager.default.contentsOfDirectory(atPath: "\(profile)/SessionStorage").sorted().first)
        let tab = try #require(
            try FileManager.default.contentsOfDirectory(atPath: "\(profile)/SessionStorage/\(session)").filter { $0.count == 8 }.sorted()
                .first)
        try FileManager.default.removeItem(atPath: "\(profile)/SessionStorage/\(session)/\(tab)/data.pb")
        let error = try #require(throws: ForensicsError.self) { try Support.migrator(profile).plan(to: .legacy) }
        #expect(error.description.contains("data.pb"))
    }

    @Test func chromesRepairsAreAppliedAndReported() throws {
        let window = LegacyWindow(
            selectedIndex: 9,
            tabs: [
                LegacyTab(
                    uniqueIdentifier: 0, lastCommittedItemIndex: 4, items: [Support.item("https://a.example/", "A", 1)],
                    creationTime: Support.time(10), lastActiveTime: Support.time(5)),
                LegacyTab(uniqueIdentifier: 8, lastCommittedItemIndex: 0, items: [Support.item("https://b.example/", "B", 2)]),
                LegacyTab(
                    uniqueIdentifier: 8, lastCommittedItemIndex: 0, items: [Support.item("https://c.example/", "C", 3)], pinned: true),
                LegacyTab(uniqueIdentifier: 12, lastCommittedItemIndex: 0, items: [])
            ])
        let (session, changes) = FormatConversion.toOptimized(window, id: "W", incognito: false)
        // session_migration.mm copies every tab, the empty one too (Chrome drops it at the next
        // load), and counts every tab marked pinned.
        #expect(session.tabs.map(\.url) == ["https://a.example/", "https://b.example/", "https://c.example/", ""])
        #expect(Set(session.tabs.map(\.id)).count == 4 && session.tabs.allSatisfy(\.hasValidID))
        #expect(session.tabs[3].navigationItemCount == 0)
        #expect(session.activeIndex == 0)
        #expect(session.pinnedCount == 1)
        #expect(session.tabs[0].history?.lastCommittedIndex == 0)
        #expect(session.tabs[0].lastActiveTime == Support.time(10))
        // Chrome's reader: tab 0's id, index and time, tab 3's index, two pinned states, the
        // selected index; Chrome's next load drops tab 3; sessionctl gives tab 2 a fresh id.
        #expect(changes.count == 9, "\(changes.map(\.message).joined(separator: " | "))")
        #expect(changes.filter { $0.origin == .sessionctl }.count == 1)
        #expect(changes.contains { $0.tab == 3 && $0.message.contains("Chrome drops it when it next loads") })
    }

    /// session_migration_unittest BatchToOptimized / BatchToLegacy with kSessionInfo1: five tabs,
    /// active 1, the first two pinned, tabs 3 and 4 opened by tab 2: the list survives both ways.
    @Test func chromiumsSessionInfo1MigratesBothWays() throws {
        var tabs: [LegacyTab] = []
        for index in 0..<5 {
            let opener: Opener? = index >= 3 ? Opener(index: 2, navigationIndex: 0) : nil
            let item = Support.item("https://www.example.com/", "Example Domain", Int64(index))
            tabs.append(
                LegacyTab(
                    uniqueIdentifier: Int64(index + 1), stableIdentifier: "00000000-0000-4000-8000-00000000000\(index)",
                    lastCommittedItemIndex: 0, items: [item], userAgentKey: "AUTOMATIC",
                    creationTime: Support.time(1), lastActiveTime: Support.time(2), pinned: index < 2, opener: opener))
        }
        let (session, changes) = FormatConversion.toOptimized(LegacyWindow(selectedIndex: 1, tabs: tabs), id: "S1", incognito: false)
        #expect(changes.isEmpty, "\(changes.map(\.message))")
        #expect(session.activeIndex == 1 && session.pinnedCount == 2)
        let expectedOpener = Opener(index: 2, navigationIndex: 0)
        let openers: [Opener?] = session.tabs.map { (tab: Tab) in tab.opener }
        #expect(openers == [nil, nil, nil, expectedOpener, expectedOpener])
        for tab in session.tabs {
            #expect(tab.navigationItemCount == 1 && tab.title == "Example Domain" && tab.history?.lastCommittedIndex == 0)
        }

        let (window, back) = try FormatConversion.toLegacy(session)
        #expect(back.isEmpty, "\(back.map(\.message))")
        #expect(window.selectedIndex == 1)
        let pinned: [Bool] = window.tabs.map { (tab: LegacyTab) in tab.pinned }
        #expect(pinned == [true, true, false, false, false])
        let legacyOpeners: [Opener?] = window.tabs.map { (tab: LegacyTab) in tab.opener }
        #expect(legacyOpeners == openers)
        for tab in window.tabs { #expect(tab.stableIdentifier.flatMap(UUID.init(uuidString:)) != nil) }
    }

    /// session_migration_unittest BatchToOptimized_InvalidUniqueIdentifiers: a tab without a valid
    /// id gets one above those in use; the empty session keeps no active tab.
    @Test func invalidIdentifiersAndEmptySessions() throws {
        let window = LegacyWindow(
            selectedIndex: 0,
            tabs: [
                LegacyTab(uniqueIdentifier: 7, lastCommittedItemIndex: 0, items: [Support.item("https://a.example/", "A", 1)]),
                LegacyTab(uniqueIdentifier: nil, lastCommittedItemIndex: 0, items: [Support.item("https://b.example/", "B", 2)])
            ])
        let (session, _) = FormatConversion.toOptimized(window, id: "S", incognito: false)
        let ids: [TabID] = session.tabs.map { (tab: Tab) in tab.id }
        #expect(ids == [7, 8])
        let (empty, _) = FormatConversion.toOptimized(LegacyWindow(), id: "E", incognito: true)
        #expect(empty.activeIndex == -1 && empty.tabs.isEmpty)
    }
}
