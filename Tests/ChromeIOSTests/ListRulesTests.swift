import SessionFormats
import SessionModel
import TestSupport
import Testing

@testable import ChromeIOS
@testable import SessionForensics

/// The list rules, one at a time, on windows built in memory.
@Suite struct ListRulesTests {
    init() { Browsers.install() }

    @Test func healthyListRaisesNothing() {
        let list = Samples.list(Samples.session())
        #expect(ListRules.check(list).isEmpty)
        #expect(GroupRules.check(list).isEmpty)
    }

    @Test func invalidIDsPointAtTheIdentifier() throws {
        var session = Samples.session()
        session.tabs[1].id = -7
        session.tabs[3].id = 0
        let bytes = ChromeProtoCodec.encodeSessionMetadata(session)
        let findings = ListRules.invalidTabIDs(Samples.list(session))
        #expect(findings.map(\.tab?.index) == [1, 3])
        #expect(findings.allSatisfy { $0.rule == .tabIDInvalid && $0.outcome == .sessionLost })
        // -7 is a ten-byte varint starting 0xf9; 0 is not written, so the item's start is named.
        let first = try #require(findings[0].offset)
        #expect(bytes[first] == 0xf9 && bytes[first - 1] == 0x08)
        #expect(bytes[try #require(findings[1].offset)] == 0x0a)
    }

    /// Millions of broken entries cost bounded memory: 1,000 findings of a rule, then one counting the rest.
    @Test func manyFindingsOfOneRuleAreCounted() {
        var session = Samples.session(ids: Array(1...1500))
        for index in session.tabs.indices { session.tabs[index].navigationItemCount = 0 }
        let findings = ListRules.tabsWithoutHistory(Samples.list(session))
        #expect(findings.count == FindingCap.limit + 1)
        #expect(findings.allSatisfy { $0.rule == .tabNoHistory })
        #expect(findings.last?.tab == nil && findings.last?.message.hasPrefix("and 500 more like these") == true)
    }

    @Test func duplicatesKeepTheFirst() {
        let session = Samples.session(ids: [5, 6, 5, 7, 6])
        let findings = ListRules.duplicateTabIDs(Samples.list(session))
        #expect(findings.map(\.tab?.index) == [2, 4])
        #expect(findings[0].message.contains("like tab 0"))
    }

    @Test func tabsWithoutItemsAreDroppedBeforeDuplicatesAreCounted() {
        var session = Samples.session(ids: [5, 5, 6])
        session.tabs[0].navigationItemCount = 0
        let list = Samples.list(session)
        #expect(ListRules.tabsWithoutHistory(list).map(\.tab?.index) == [0])
        #expect(ListRules.duplicateTabIDs(list).isEmpty)
        #expect((0..<list.count).map(list.fate) == [.noHistory, .kept, .kept])
    }

    @Test(arguments: [(-1, false), (0, false), (3, false), (4, true), (-2, true), (Int32.max, true)])
    func activeIndex(index: Int32, fires: Bool) {
        var session = Samples.session()
        session.activeIndex = index
        let findings = ListRules.activeIndex(Samples.list(session))
        #expect(findings.count == (fires ? 1 : 0))
        #expect(findings.allSatisfy { $0.rule == .activeIndexOutOfRange && $0.offset != nil })
    }

    @Test func activeIndexOfAnEmptyWindowActivatesNothingAnyway() {
        let session = Session(id: "x", activeIndex: 5)
        #expect(ListRules.activeIndex(Samples.list(session)).isEmpty)
    }

    @Test(arguments: [(0, false), (4, false), (5, true), (-1, true)])
    func pinnedCount(count: Int32, fires: Bool) {
        var session = Samples.session()
        session.pinnedCount = count
        #expect(ListRules.pinnedCount(Samples.list(session)).count == (fires ? 1 : 0))
    }

    @Test func openersMustPointIntoTheWindow() {
        var session = Samples.session()
        session.tabs[1].opener = Opener(index: 0, navigationIndex: 0)
        session.tabs[2].opener = Opener(index: 4, navigationIndex: 1)
        session.tabs[3].opener = Opener(index: -1, navigationIndex: 0)
        let bytes = ChromeProtoCodec.encodeSessionMetadata(session)
        let findings = ListRules.openers(Samples.list(session))
        #expect(findings.map(\.tab?.index) == [2, 3])
        // The offset is the opener field's tag (field 2, length-delimited).
        #expect(findings.compactMap(\.offset).allSatisfy { bytes[$0] == 0x12 })
    }
}

/// The group rules, in the order Chrome's loader applies them.
@Suite struct GroupRulesTests {
    init() { Browsers.install() }

    static func session(_ groups: [TabGroup], pinned: Int32 = 1) -> Session {
        var session = Samples.session()
        session.pinnedCount = pinned
        session.groups = groups
        return session
    }

    static func group(_ start: Int32, _ count: Int32, id: TabGroupID? = TabGroupID(high: 0, low: 9)) -> TabGroup {
        TabGroup(start: start, count: count, id: id)
    }

    @Test(arguments: [
        (1, 3, false), (3, 1, false), (1, 0, true), (2, -1, true), (0, 1, true), (-1, 2, true), (3, 2, true),
        (4, 1, true), (Int32.max, Int32.max, true)
    ])
    func ranges(start: Int32, count: Int32, fires: Bool) {
        let findings = GroupRules.ranges(Samples.list(Self.session([Self.group(start, count)])))
        #expect(findings.count == (fires ? 1 : 0))
    }

    @Test func aGroupMayStartAtZeroWithoutPinnedTabs() {
        #expect(GroupRules.ranges(Samples.list(Self.session([Self.group(0, 4)], pinned: 0))).isEmpty)
    }

    @Test func pinnedCountBeyondTheTabsIsClampedFirst() {
        let findings = GroupRules.ranges(Samples.list(Self.session([Self.group(2, 2)], pinned: 9)))
        #expect(findings.count == 1)
        #expect(findings[0].message.contains("among the 4 pinned tabs"))
    }

    @Test func duplicateIDsRemoveTheLaterGroup() {
        let id = TabGroupID(high: 7, low: 7)
        let groups = [Self.group(1, 1, id: id), Self.group(2, 1, id: TabGroupID(high: 0, low: 1)), Self.group(3, 1, id: id)]
        let findings = GroupRules.duplicateIDs(Samples.list(Self.session(groups)))
        #expect(findings.count == 1)
        #expect(findings[0].message.hasPrefix("group 2"))
    }

    @Test func aGroupSkippedForItsRangeDoesNotClaimItsID() {
        let id = TabGroupID(high: 7, low: 7)
        let groups = [Self.group(0, 1, id: id), Self.group(2, 1, id: id)]
        let list = Samples.list(Self.session(groups))
        #expect(GroupRules.ranges(list).count == 1)
        #expect(GroupRules.duplicateIDs(list).isEmpty)
    }

    @Test func zeroAndMissingIDsGetFreshOnesAndAreNotDuplicates() {
        let groups = [Self.group(1, 1, id: nil), Self.group(2, 1, id: TabGroupID(high: 0, low: 0))]
        let list = Samples.list(Self.session(groups))
        #expect(GroupRules.zeroIDs(list).count == 2)
        #expect(GroupRules.duplicateIDs(list).isEmpty)
    }
}

/// Groups are checked on the tabs Chrome restores: ranges re-mapped after dropped tabs, then the
/// pinned and id conditions.
@Suite struct GroupRemappingTests {
    init() { Browsers.install() }

    @Test func aGroupOfDroppedTabsOnlyIsRemoved() {
        var session = Samples.session()
        session.tabs[1].navigationItemCount = 0
        session.tabs[2].navigationItemCount = 0
        let findings = GroupRules.ranges(Samples.list(session))
        #expect(findings.count == 1)
        #expect(findings.first?.message.contains("none of its tabs") == true)
    }

    @Test func aDroppedPinnedTabMovesTheGroupOutOfThePinnedRange() {
        // Pinned 2, tab 1 dropped: one pinned tab is restored, and the group over tabs 1..<3 now starts after it.
        var session = Samples.session()
        session.pinnedCount = 2
        session.tabs[1].navigationItemCount = 0
        session.groups = [TabGroup(start: 1, count: 2, id: TabGroupID(high: 0, low: 3))]
        #expect(GroupRules.check(Samples.list(session)).isEmpty)
    }

    /// On random windows, the validator removes, keeps and renews exactly the groups and tabs that
    /// the store's model of Chrome's loader does.
    @Test func agreesWithChromeLoadSemantics() {
        var generator = SplitMix64(seed: 0x6a0c)
        for round in 0..<500 {
            let count = Int(generator.next() % 6)
            var tabs: [Tab] = []
            for _ in 0..<count {
                var tab = Samples.tab(TabID(1 + generator.next() % 4), history: Samples.history(items: 1))
                if generator.next() % 4 == 0 { tab.navigationItemCount = 0 }
                if generator.next() % 3 == 0 { tab.opener = Opener(index: Int32(generator.next() % 7) - 1, navigationIndex: 0) }
                tabs.append(tab)
            }
            var groups: [TabGroup] = []
            for _ in 0..<(generator.next() % 4) {
                let ids: [TabGroupID?] = [nil, TabGroupID(high: 0, low: 0), TabGroupID(high: 1, low: 1), TabGroupID(high: 2, low: 1)]
                groups.append(
                    TabGroup(
                        start: Int32(generator.next() % 7) - 1, count: Int32(generator.next() % 4) - 1,
                        id: ids[Int(generator.next() % 4)]))
            }
            let session = Session(
                id: "s", activeIndex: Int32(generator.next() % 8) - 2,
                pinnedCount: Int32(generator.next() % 8) - 1, tabs: tabs, groups: groups)
            let list = Samples.list(session)
            let restored = ChromeLoadSemantics.restore(session)
            var removed = Set<Int>()
            var renewed = Set<Int>()
            for adjustment in restored.adjustments {
                if case .groupRemoved(let group, _) = adjustment { removed.insert(group) }
                if case .groupIDRegenerated(let group) = adjustment { renewed.insert(group) }
            }
            let groupNumber = { (finding: Finding) in Int(finding.message.dropFirst("group ".count).prefix { $0 != " " }) ?? -1 }
            #expect(Set((GroupRules.ranges(list) + GroupRules.duplicateIDs(list)).map(groupNumber)) == removed, "round \(round)")
            #expect(Set(GroupRules.zeroIDs(list).map(groupNumber)) == renewed, "round \(round)")
            let dropped = Set(restored.dropped.map(\.index))
            #expect(
                Set((ListRules.tabsWithoutHistory(list) + ListRules.duplicateTabIDs(list)).compactMap(\.tab?.index)) == dropped,
                "round \(round)")
        }
    }
}
