import FileSystemKit
import SessionFormats
import SessionModel
import Synchronization
import TestSupport
import Testing

@testable import ChromeIOS
@testable import SessionForensics

/// The work of planning a repair grows with the tabs, not with their square: the planned tree
/// answers each question with a lookup, and the directories no listed tab owns are decoded once
/// however many tabs with fresh ids are matched against them (counts of work, not timings).
@Suite struct RepairWorkTests {
    init() { Browsers.install() }

    /// A window of `count` tabs with histories whose pinned count is out of range: repair
    /// rewrites the whole window, every tab directory included.
    static func windowToRewrite(tabs count: Int) -> MemoryTree {
        var session = Samples.session(ids: (1...count).map { TabID($0) })
        session.groups = []
        session.pinnedCount = Int32(count + 5)
        return Samples.tree(session)
    }

    @Test func validatingThePlannedTreeLooksAtEachWrittenEntryAFewTimes() throws {
        let tabs = 3000
        let input = try InputLocator.locate(tree: Self.windowToRewrite(tabs: tabs).readable, ancestry: ["profile"])
        let read = InputRead(input, depth: .rewrite)
        let plan = RepairPlanner().plan(read, report: Validator().validate(read))
        #expect(plan.sessions.count == 1 && plan.sessions.first?.tabs == tabs)
        var planned = PlannedTree(base: input.tree, plan: plan)
        let examined = Atomic<Int>(0)
        planned.examined = { examined.add($0, ordering: .relaxed) }
        let after = Validator().validate(try InputLocator.locate(tree: planned.tree, ancestry: ["profile"]))
        #expect(after.findings.filter(\.needsRepair).isEmpty)
        // Each tab directory is asked about a handful of times (its kind, its listing of one or
        // two names, data.pb); answering by scanning the written files cost 2 x tabs each time.
        #expect(examined.load(ordering: .relaxed) <= 10 * tabs)
    }

    @Test func directoriesNoTabOwnsAreDecodedOnceForAllTabsGivenFreshIDs() {
        let duplicates = 400
        let orphans = 300
        let tree = MemoryTree()
        let history = Samples.history(items: 1)
        // Tab 5, then `duplicates` more entries with its id and pages no directory holds.
        var tabs = [Samples.tab(5, history: history)]
        for number in 0..<duplicates {
            var tab = Samples.tab(5, history: history)
            tab.url = "https://example.org/listed/\(number)"
            tabs.append(tab)
        }
        tree.add("\(RepairSupport.base)/\(Tab.directoryName(for: 5))/data.pb", ChromeProtoCodec.encodeTabData(history))
        for number in 0..<orphans {
            let orphan = TabHistory(
                lastCommittedIndex: 0, items: [NavigationItem(url: "https://example.org/orphan/\(number)", title: "Orphan")])
            tree.add(
                "\(RepairSupport.base)/\(Tab.directoryName(for: TabID(1000 + number)))/data.pb", ChromeProtoCodec.encodeTabData(orphan))
        }
        tree.add(
            RepairSupport.metadata,
            ChromeProtoCodec.encodeSessionMetadata(Session(id: Samples.sessionID, activeIndex: 0, pinnedCount: 0, tabs: tabs)))
        var rebuilder = SessionRebuilder(snapshot: RepairSupport.snapshot(tree))
        let repaired = rebuilder.rebuild()
        #expect(repaired.session.tabs.count == 1 + duplicates)
        #expect(rebuilder.actions.filter { $0.rule == .tabIDDuplicate }.count == duplicates)
        // Matching each duplicate against every orphan decoded duplicates x orphans histories.
        #expect(rebuilder.orphanHistoriesRead == orphans)
    }

    @Test func aTabGivenAFreshIDStillFindsTheFirstMatchingDirectoryByID() {
        let tree = MemoryTree()
        let history = Samples.history(items: 2)
        var stray = Samples.tab(0, history: history)
        stray.title = ""
        tree.add(
            RepairSupport.metadata,
            ChromeProtoCodec.encodeSessionMetadata(
                Session(id: Samples.sessionID, activeIndex: 0, pinnedCount: 0, tabs: [Samples.tab(1, history: history), stray, stray])))
        tree.add("\(RepairSupport.base)/\(Tab.directoryName(for: 1))/data.pb", ChromeProtoCodec.encodeTabData(history))
        for id: TabID in [9, 7] {
            tree.add("\(RepairSupport.base)/\(Tab.directoryName(for: id))/data.pb", ChromeProtoCodec.encodeTabData(history))
        }
        let (repaired, actions) = RepairSupport.rebuild(tree)
        let used = actions.filter { $0.rule == .unreferencedEntry }.map { lastPathComponent($0.file) }
        #expect(used == [Tab.directoryName(for: 7), Tab.directoryName(for: 9)])
        #expect(repaired.session.tabs.count == 3)
    }
}
