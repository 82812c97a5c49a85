import SessionFormats
import SessionModel
import TestSupport
import Testing

@testable import ChromeIOS
@testable import SessionForensics

/// The legacy rules, one at a time, on windows built in memory.
@Suite struct LegacyRulesTests {
    init() { Browsers.install() }

    static let scope = Samples.scope(file: "Sessions/x/session.plist")

    static func window(tabs count: Int = 3, selected: Int64 = 0) -> LegacyWindow {
        LegacyWindow(
            selectedIndex: selected,
            tabs: (0..<count).map { index in
                LegacyTab(
                    uniqueIdentifier: Int64(index + 1), lastCommittedItemIndex: 1,
                    items: [Samples.item(0), Samples.item(1)], userAgentKey: "MOBILE",
                    creationTime: Timestamp(microseconds: 100), lastActiveTime: Timestamp(microseconds: 200))
            })
    }

    @Test func healthyWindowRaisesNothing() {
        #expect(LegacyRules.check(Self.window(), scope: Self.scope).isEmpty)
    }

    @Test(arguments: [(0, false), (2, false), (LegacyWindow.notFound, false), (Int64.max, false), (3, true), (-1, true)])
    func selectedIndex(selected: Int64, fires: Bool) {
        #expect(LegacyRules.selectedIndex(Self.window(selected: selected), scope: Self.scope).count == (fires ? 1 : 0))
    }

    @Test func selectedIndexOfAnEmptyWindowSelectsNothing() {
        let findings = LegacyRules.selectedIndex(Self.window(tabs: 0, selected: 0), scope: Self.scope)
        #expect(findings.first?.message.hasSuffix("selects nothing") == true)
    }

    @Test(arguments: [nil, 0, -3, Int64(Int32.max) + 1] as [Int64?])
    func invalidIdentifiers(id: Int64?) {
        var window = Self.window()
        window.tabs[1].uniqueIdentifier = id
        #expect(LegacyRules.tabIDs(window, scope: Self.scope).map(\.tab?.index) == [1])
    }

    @Test(arguments: [(-1, false), (1, false), (2, true), (-2, true)])
    func lastCommitted(index: Int64, fires: Bool) {
        var window = Self.window()
        window.tabs[0].lastCommittedItemIndex = index
        #expect(LegacyRules.lastCommitted(window, scope: Self.scope).count == (fires ? 1 : 0))
    }

    @Test func anEmptyTabClampsToMinusOne() {
        var window = Self.window()
        window.tabs[0].items = []
        window.tabs[0].lastCommittedItemIndex = 0
        #expect(LegacyRules.lastCommitted(window, scope: Self.scope).first?.message.hasSuffix("uses -1") == true)
    }

    /// crw_session_storage_unittest EncodeDecode_LastActiveTimeUnset: a missing last-active time
    /// decodes as the creation time.
    @Test func timeOrderRaisesAMissingLastActiveTime() {
        var window = Self.window()
        window.tabs[0].lastActiveTime = .null
        window.tabs[1].lastActiveTime = Timestamp(microseconds: 99)
        #expect(LegacyRules.timeOrder(window, scope: Self.scope).map(\.tab?.index) == [1])
        #expect(window.repairedAsChromeLoads().repairs.filter(\.isBenign).map(\.tab) == [0])
        #expect(window.repairedAsChromeLoads().window.tabs[0].lastActiveTime == window.tabs[0].creationTime)
    }

    @Test func aLastCommittedIndexBelowMinusOneIsKept() {
        var window = Self.window()
        window.tabs[1].lastCommittedItemIndex = -5
        #expect(LegacyRules.lastCommitted(window, scope: Self.scope).map(\.rule) == [.lastCommittedNegative])
        #expect(window.repairedAsChromeLoads().window.tabs[1].lastCommittedItemIndex == -5)
    }

    /// session_migration.mm: every tab marked pinned counts, and the first that many are pinned.
    @Test func pinnedMarksCountWhereverTheyAre() {
        var window = Self.window()
        window.tabs[0].pinned = true
        window.tabs[2].pinned = true
        #expect(LegacyRules.pinnedPrefix(window, scope: Self.scope).map(\.tab?.index) == [1, 2])
        #expect(window.session(id: "S", incognito: false).pinnedCount == 2)
        #expect(
            window.repairedAsChromeLoads().window.tabs.map(\.pinned) == [true, true] + Array(repeating: false, count: window.tabs.count - 2)
        )
    }

    @Test func unknownUserAgentWords() {
        var window = Self.window()
        window.tabs[0].userAgentKey = nil
        window.tabs[1].userAgentKey = "mobile"
        #expect(LegacyRules.userAgents(window, scope: Self.scope).map(\.tab?.index) == [1])
    }

    @Test func aWindowFileRunsTheSharedRulesToo() throws {
        var session = Samples.session()
        session.tabs[2].id = 2
        session.tabs[3].history?.items = []
        session.tabs[3].history?.lastCommittedIndex = -1
        let tree = MemoryTree(["Sessions/w/session.plist": LegacySessionCodec.encode(session)])
        let report = Validator().validate(try InputLocator.locate(tree: tree.readable, ancestry: ["profile"]))
        #expect(report.findings.map(\.rule) == [.tabIDDuplicate, .tabDataEmpty])
        #expect(report.findings.allSatisfy { $0.offset != nil && $0.file == "Sessions/w/session.plist" })
    }
}
