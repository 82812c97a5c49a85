import SessionFormats
import SessionModel
import TestSupport
import Testing

@testable import ChromeIOS
@testable import SessionForensics

/// The rebuilder on session directories held in memory: what it saves, what ids and metadata it
/// gives, and that what it writes validates without a finding that needs repair.
@Suite struct SessionRebuilderTests {
    init() { Browsers.install() }

    typealias Support = RepairSupport

    @Test func aHealthySessionIsLeftExactlyAsItIs() throws {
        let tree = Samples.tree(Samples.session())
        let (repaired, actions) = Support.rebuild(tree)
        #expect(actions.isEmpty)
        #expect(repaired.matches(Support.snapshot(tree)))
    }

    @Test func aMissingListIsRebuiltFromTheTabDirectories() throws {
        var session = Samples.session(ids: [3, 7, 12])
        session.tabs[1].history = Samples.history(items: 4, lastCommitted: 2)
        let tree = Samples.tree(session)
        tree.remove(Support.metadata)
        let (repaired, actions) = Support.rebuild(tree)
        #expect(repaired.session.tabs.map(\.id) == [3, 7, 12])
        let second = repaired.session.tabs[1]
        #expect(second.navigationItemCount == 4)
        #expect(second.url == Samples.item(2).url && second.title == "Page 2")
        #expect(second.creationTime == Samples.item(0).timestamp && second.lastActiveTime == Samples.item(3).timestamp)
        // The most recently active tab becomes the active one.
        #expect(repaired.session.activeIndex == 1)
        #expect(actions.first?.rule == .metadataMissing)
        #expect(actions.filter { $0.rule == .metadataMissing }.count == 4)
        #expect(try Support.problems(repaired) == [])
    }

    @Test func aTruncatedListKeepsItsCompleteTabsAndAdoptsTheRest() throws {
        var session = Samples.session(ids: [1, 2, 3, 4])
        session.tabs[1].opener = Opener(index: 0, navigationIndex: 1)
        let tree = Samples.tree(session)
        let bytes = ChromeProtoCodec.encodeSessionMetadata(session)
        let layout = ListLayout(bytes)
        let cut = try #require(layout.item(2)?.start) + 5
        tree.add(Support.metadata, Array(bytes[..<cut]))
        let (repaired, actions) = Support.rebuild(tree)
        #expect(repaired.session.tabs.map(\.id) == [1, 2, 3, 4])
        // The salvaged tabs keep what only the list had.
        #expect(repaired.session.tabs[1].opener == Opener(index: 0, navigationIndex: 1))
        #expect(actions.first?.rule == .metadataUnparsable)
        #expect(actions.first?.action.contains("2 complete tabs before byte") == true)
        #expect(try Support.problems(repaired) == [])
    }

    @Test func anInvalidIDGetsAFreshOneAndTheDirectoryItsHistoryIsIn() throws {
        var session = Samples.session(ids: [1, 2, 3])
        session.tabs[1].history = Samples.history(items: 3)
        session.tabs[1] = {
            var tab = Samples.tab(2, history: Samples.history(items: 3))
            tab.history = Samples.history(items: 3)
            return tab
        }()
        let tree = Samples.tree(session)
        var damaged = session
        damaged.tabs[1].id = -5
        tree.add(Support.metadata, ChromeProtoCodec.encodeSessionMetadata(damaged))
        let (repaired, actions) = Support.rebuild(tree)
        #expect(repaired.session.tabs.map(\.id) == [1, 4, 3])
        #expect(actions.map(\.rule) == [.tabIDInvalid, .unreferencedEntry])
        #expect(try Support.histories(repaired)[4]?.items.count == 3)
        #expect(repaired.tabs.map(\.directory) == ["00000001", "00000004", "00000003"])
        #expect(try Support.problems(repaired) == [])
    }

    @Test func aDuplicateIDWithoutADirectoryOfItsOwnGetsAOneItemHistory() throws {
        var session = Samples.session(ids: [1, 2, 3])
        session.tabs[2].title = "Third"
        session.tabs[2].url = "https://example.org/third"
        var damaged = session
        damaged.tabs[2].id = 1
        let tree = Samples.tree(session)
        tree.add(Support.metadata, ChromeProtoCodec.encodeSessionMetadata(damaged))
        tree.remove("\(Support.base)/00000003")
        let (repaired, actions) = Support.rebuild(tree)
        // 3 is free again: its directory is gone, so the highest id in use is 2.
        #expect(repaired.session.tabs.map(\.id) == [1, 2, 3])
        #expect(actions.map(\.rule) == [.tabIDDuplicate, .tabDirectoryMissing, .itemCountMismatch])
        let rebuilt = try #require(try Support.histories(repaired)[3])
        #expect(rebuilt.items.map(\.url) == ["https://example.org/third"])
        #expect(rebuilt.items.first?.title == "Third" && rebuilt.items.first?.timestamp == session.tabs[2].lastActiveTime)
        #expect(try Support.problems(repaired) == [])
    }

    @Test func aDamagedHistoryKeepsItsCompleteItems() throws {
        var session = Samples.session(ids: [1, 2])
        session.tabs[1].history = Samples.history(items: 5)
        session.tabs[1].navigationItemCount = 5
        let tree = Samples.tree(session)
        let bytes = ChromeProtoCodec.encodeTabData(Samples.history(items: 5))
        let layout = TabDataLayout(bytes)
        // Cut inside the fourth item: three complete items are left.
        let cut = try #require(layout.item(3)) + 4
        tree.add("\(Support.base)/00000002/data.pb", Array(bytes[..<cut]))
        let (repaired, actions) = Support.rebuild(tree)
        #expect(actions.map(\.rule).contains(.tabDataUnparsable))
        let history = try #require(try Support.histories(repaired)[2])
        #expect(history.items == Array(Samples.history(items: 5).items.prefix(3)))
        #expect(history.lastCommittedIndex == 2)
        #expect(repaired.session.tabs[1].navigationItemCount == Int32(history.items.count))
        #expect(try Support.problems(repaired) == [])
    }

    @Test func longHistoriesAreTrimmedAsChromeTrimsThem() throws {
        var session = Samples.session(ids: [1])
        session.groups = []
        session.pinnedCount = 0
        let long = Samples.history(items: 90, lastCommitted: 80)
        session.tabs[0] = Samples.tab(1, history: long)
        session.tabs[0].history = long
        let (repaired, actions) = Support.rebuild(Samples.tree(session))
        #expect(actions.map(\.rule) == [.historyTooLong, .itemCountMismatch])
        #expect(try Support.histories(repaired)[1] == ChromeSaveSemantics.storedHistory(long))
        #expect(try Support.problems(repaired) == [])
    }

    @Test func wrappersAreUnwrappedAndUnknownFieldsSurvive() throws {
        var session = Samples.session()
        var history = Samples.history(items: 2)
        history.items[0].url = "internal://local/sessionrestore?url=https%3A%2F%2Freal.example%2Fa&uuidkey=K"
        history.items[0].unknownFields = [0x98, 0x06, 0x01]  // field 99, varint 1
        history.unknownFields = [0xa0, 0x06, 0x02]  // field 100, varint 2
        session.tabs[1].history = history
        session.tabs[1].unknownFields = [0xa8, 0x06, 0x03]
        session.unknownFields = [0xb0, 0x06, 0x04]
        session.activeIndex = 7
        let (repaired, actions) = Support.rebuild(Samples.tree(session))
        #expect(actions.map(\.rule) == [.internalURL, .activeIndexOutOfRange])
        let written = try #require(try Support.histories(repaired)[2])
        #expect(written.items[0].url == "https://real.example/a")
        #expect(written.items[0].unknownFields == [0x98, 0x06, 0x01] && written.unknownFields == [0xa0, 0x06, 0x02])
        let list = try ChromeProtoCodec.decodeSessionMetadata(repaired.metadata, id: Samples.sessionID, incognito: false)
        #expect(list.tabs[1].unknownFields == [0xa8, 0x06, 0x03] && list.unknownFields == [0xb0, 0x06, 0x04])
        #expect(try Support.problems(repaired) == [])
    }

    @Test func enumsGroupsAndOpenersAreBroughtInRange() throws {
        var session = Samples.session(ids: [1, 2, 3, 4])
        session.tabs[2].history?.userAgent = UserAgent(rawValue: 9)
        session.tabs[2].history?.items[0].referrer = Referrer(url: "https://r.example/", policy: ReferrerPolicy(rawValue: 40))
        session.tabs[3].opener = Opener(index: 12, navigationIndex: 0)
        session.groups = [
            TabGroup(start: 0, count: 3, title: "Pinned start", color: TabGroupColor(rawValue: 17), id: TabGroupID(high: 0, low: 0)),
            TabGroup(start: 3, count: 9, title: "Past end", id: TabGroupID(high: 5, low: 6)),
            TabGroup(start: 3, count: 1, title: "Same id", id: TabGroupID(high: 5, low: 6))
        ]
        let (repaired, actions) = Support.rebuild(Samples.tree(session))
        let rules = Set(actions.map(\.rule))
        #expect(rules == [.enumOutOfRange, .openerOutOfRange, .groupRangeInvalid, .groupIDZero, .groupIDDuplicate, .groupColorOutOfRange])
        let groups = repaired.session.groups
        #expect(groups.map(\.start) == [1, 3, 3] && groups.map(\.count) == [2, 1, 1])
        #expect(groups[0].color == .grey && groups[0].id?.isZero == false && groups[2].id != groups[1].id)
        #expect(repaired.session.tabs[3].opener == nil)
        // The same input gives the same fresh ids.
        #expect(Support.rebuild(Samples.tree(session)).0 == repaired)
        #expect(try Support.problems(repaired) == [])
    }

    /// Stray entries stay in the set-aside copy; a state.pb over 5 MiB is kept (Chrome reads any size).
    @Test func strayEntriesAreLeftInTheSetAsideCopyAndLargeStateIsKept() throws {
        var session = Samples.session(ids: [1, 2])
        session.groups = []
        let tree = Samples.tree(session)
        tree.add("\(Support.base)/notes.txt", Array("hello".utf8))
        tree.add("\(Support.base)/.dat.nosync12.abc", [1])
        tree.add("\(Support.base)/00000001/metadata.pb", [0x20, 0x01])
        tree.add("\(Support.base)/00000002/state.pb", [1, 2, 3])
        tree.addSized("\(Support.base)/00000001/state.pb", size: 6 * 1024 * 1024)
        tree.add("\(Support.base)/00000009/data.pb", ChromeProtoCodec.encodeTabData(Samples.history(items: 1)))
        let (repaired, actions) = Support.rebuild(tree)
        #expect(Set(actions.map(\.rule)) == [.strayFile, .temporaryFile, .transitionalMetadata, .unreferencedEntry])
        #expect(repaired.session.tabs.map(\.id) == [1, 2])
        #expect(repaired.tabs[0].state != nil && repaired.tabs[1].state == [1, 2, 3])
        #expect(try Support.problems(repaired) == [])
    }

    @Test func aTabWithNeitherHistoryNorURLIsLeftOut() throws {
        var session = Samples.session(ids: [1, 2])
        session.tabs[1].url = ""
        session.tabs[1].title = ""
        let tree = Samples.tree(session)
        tree.remove("\(Support.base)/00000002")
        let (repaired, actions) = Support.rebuild(tree)
        #expect(repaired.session.tabs.map(\.id) == [1])
        #expect(actions.contains { $0.rule == .tabDirectoryMissing && $0.action.contains("leave tab 1 (#2) out") })
        #expect(try Support.problems(repaired) == [])
    }
}
