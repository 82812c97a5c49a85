import SessionFormats
import SessionModel
import TestSupport
import Testing

@testable import ChromeIOS
@testable import SessionForensics

/// Lists padded with thousands of entries that name no tab (no valid id, URL or title): the
/// report shows every tab and a bounded number of such entries, and repair leaves them out with
/// the steps it always recorded for them, without a candidate tab each.
@Suite struct NamelessEntryTests {
    init() { Browsers.install() }

    /// `before` empty entries, an id-0 entry with a URL, `after` empty entries, then tab 3.
    static func paddedTree(before: Int, after: Int) -> MemoryTree {
        let history = Samples.history(items: 1)
        var salvageable = Tab(id: 0, url: "https://example.org/kept", navigationItemCount: 1)
        salvageable.title = "Kept"
        let tabs =
            Array(repeating: Tab(id: 0), count: before) + [salvageable]
            + Array(repeating: Tab(id: 0), count: after) + [Samples.tab(3, history: history)]
        let tree = MemoryTree()
        tree.add(
            RepairSupport.metadata,
            ChromeProtoCodec.encodeSessionMetadata(Session(id: Samples.sessionID, activeIndex: 0, pinnedCount: 0, tabs: tabs)))
        tree.add("\(RepairSupport.base)/\(Tab.directoryName(for: 3))/data.pb", ChromeProtoCodec.encodeTabData(history))
        return tree
    }

    @Test func theReportShowsEveryTabAndCountsTheEntriesThatNameNone() throws {
        let (before, after) = (3000, 2000)
        let located = try InputLocator.locate(tree: Self.paddedTree(before: before, after: after).readable, ancestry: ["profile"])
        let page = ReportPage.render(ProfileReport.gather(located, input: "profile", history: false, redact: false))
        let shown = ReportPage.namelessRowsShown
        #expect(page.components(separatedBy: "<tr class=\"tab").count - 1 == shown + 2)
        #expect(page.contains("https://example.org/kept") && page.contains("data-tab=\"3\""))
        #expect(page.contains("and \(before + after - shown) more entries that name no tab"))
        // A row is about 600 bytes: the page is bounded by the rows shown, not by the entries.
        #expect(page.utf8.count < 600 * (shown + 2) + 100_000)
    }

    @Test func repairRecordsForEmptyEntriesTheStepsItAlwaysDid() {
        let (before, after) = (1200, 1300)
        var rebuilder = SessionRebuilder(snapshot: RepairSupport.snapshot(Self.paddedTree(before: before, after: after)))
        let repaired = rebuilder.rebuild()
        #expect(repaired.session.tabs.map(\.url) == ["https://example.org/kept", Samples.tab(3, history: Samples.history(items: 1)).url])
        let actions = rebuilder.actions
        // Fresh ids above tab 3, in list order: 4... for the first run, 1204 for the kept entry, 1205... after it.
        let fresh = actions.filter { $0.rule == .tabIDInvalid }
        #expect(fresh.count == FindingCap.limit + 1)
        #expect(fresh.first?.action == "give tab 0 (#0) the new id 4")
        #expect(fresh[FindingCap.limit - 1].action == "give tab 999 (#0) the new id 1003")
        #expect(fresh.last?.action == "and \(before + 1 + after - FindingCap.limit) more like these in this session, not listed one by one")
        let leftOut = actions.filter { $0.rule == .tabDirectoryMissing }
        #expect(leftOut.count == FindingCap.limit + 1)
        #expect(leftOut.first?.action == "leave tab 0 (#0) out of the list")
        #expect(leftOut.first?.file == "\(RepairSupport.base)/\(Tab.directoryName(for: 4))")
        // The last one not listed names the directory of the last fresh id.
        #expect(leftOut.last?.file == "\(RepairSupport.base)/\(Tab.directoryName(for: TabID(4 + before + after)))")
        #expect(leftOut.last?.reason == "it has no directory and its list entry has neither URL nor title: nothing of it is left to save")
        // Every step of the fresh ids comes before every step of the histories.
        let firstHistoryStep = actions.firstIndex { $0.rule == .tabDirectoryMissing } ?? 0
        #expect(actions.prefix(firstHistoryStep).allSatisfy { $0.rule == .tabIDInvalid })
    }
}
