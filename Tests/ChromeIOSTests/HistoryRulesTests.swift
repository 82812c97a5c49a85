import SessionFormats
import SessionModel
import TestSupport
import Testing

@testable import ChromeIOS
@testable import SessionForensics

/// The history rules, one at a time, on histories built in memory.
@Suite struct HistoryRulesTests {
    init() { Browsers.install() }

    static func subject(_ history: TabHistory, listed: Tab? = nil) -> TabDataSubject {
        Samples.data(history, listed: listed ?? Samples.tab(1, history: history))
    }

    @Test func consistentHistoryRaisesNothing() {
        #expect(HistoryRules.check(Self.subject(Samples.history(items: 3))).isEmpty)
    }

    @Test func emptyHistory() {
        let history = TabHistory(lastCommittedIndex: -1, items: [])
        var listed = Samples.tab(1, history: Samples.history(items: 1))
        listed.navigationItemCount = 1
        let findings = HistoryRules.check(Self.subject(history, listed: listed))
        #expect(findings.map(\.rule) == [.tabDataEmpty])
    }

    @Test(arguments: [
        (75, 74, nil as String?), (80, 79, "0..<5"), (80, 0, "75..<80"), (100, 40, "0..<3 and 78..<100")
    ])
    func trimmingAroundTheLastCommittedItem(count: Int, lastCommitted: Int32, lost: String?) throws {
        let findings = HistoryRules.length(Self.subject(Samples.history(items: count, lastCommitted: lastCommitted)))
        guard let lost else {
            #expect(findings.isEmpty)
            return
        }
        let finding = try #require(findings.first)
        #expect(finding.rule == .historyTooLong)
        #expect(finding.message.hasSuffix("deletes items \(lost)"))
        #expect(finding.offset != nil)
    }

    @Test(arguments: [(-1, false), (0, false), (2, false), (3, true), (-2, true)])
    func lastCommitted(index: Int32, fires: Bool) {
        let findings = HistoryRules.lastCommitted(Self.subject(Samples.history(items: 3, lastCommitted: index)))
        #expect(findings.count == (fires ? 1 : 0))
    }

    @Test func itemCountComparesTheListWithTheItems() {
        let history = Samples.history(items: 3)
        var listed = Samples.tab(1, history: history)
        #expect(HistoryRules.itemCount(Self.subject(history, listed: listed)).isEmpty)
        listed.navigationItemCount = 2
        #expect(HistoryRules.itemCount(Self.subject(history, listed: listed)).map(\.rule) == [.itemCountMismatch])
        #expect(HistoryRules.itemCount(Samples.data(history, listed: nil)).isEmpty)
    }

    @Test func activePageIsTheLastCommittedItemsDisplayURLAndTitle() {
        var history = Samples.history(items: 3, lastCommitted: 1)
        history.items[1].virtualURL = "https://shown.example.com/"
        var listed = Samples.tab(1, history: history)
        #expect(listed.url == "https://shown.example.com/")
        #expect(HistoryRules.activePage(Self.subject(history, listed: listed)).isEmpty)
        listed.url = history.items[1].url
        #expect(HistoryRules.activePage(Self.subject(history, listed: listed)).count == 1)
        listed = Samples.tab(1, history: history)
        listed.title = "Page 2"
        #expect(HistoryRules.activePage(Self.subject(history, listed: listed)).count == 1)
    }

    @Test func anUntitledItemDoesNotContradictTheListTitle() {
        var history = Samples.history(items: 1)
        history.items[0].title = ""
        var listed = Samples.tab(1, history: history)
        listed.title = "example.com"
        #expect(HistoryRules.activePage(Self.subject(history, listed: listed)).isEmpty)
    }

    @Test func internalWrappersAreFoundInURLAndVirtualURL() {
        var history = Samples.history(items: 3)
        history.items[0].url = "internal://local/sessionrestore?url=https%3A%2F%2Fa.example%2Fx%3Fq%3D1&uuidkey=K"
        history.items[2].virtualURL = "INTERNAL://local/errorpage?url=https://b.example/"
        let findings = HistoryRules.internalURLs(Self.subject(history))
        #expect(findings.map(\.rule) == [.internalURL, .internalURL])
        #expect(findings[0].message.contains("\"https://a.example/x?q=1\""))
        #expect(findings[1].message.contains("errorpage"))
    }

    @Test func embeddedMetadataIsNamed() {
        var bytes = ChromeProtoCodec.encodeTabData(Samples.history(items: 1))
        let end = bytes.count
        bytes += [0x12, 0x02, 0x20, 0x01]
        let layout = TabDataLayout(bytes)
        #expect(layout.metadata == end)
    }
}

/// Recognising internal:// wrapper URLs.
@Suite struct InternalURLTests {
    init() { Browsers.install() }

    @Test func recognises() {
        #expect(InternalURL("internal://local/sessionrestore?history=%7B%7D")?.kind == "sessionrestore")
        #expect(InternalURL("internal://local/sessionrestore?history=%7B%7D")?.wrapped == nil)
        #expect(InternalURL("internal://local/errorpage?url=a%20b+c&x=1")?.wrapped == "a b c")
        #expect(InternalURL("internal://local/errorpage?url=%zz%2")?.wrapped == "%zz%2")
    }

    @Test(arguments: ["https://internal.example/", "internal://local/", "internal://local/about", "internal://", ""])
    func ignores(url: String) {
        #expect(InternalURL(url) == nil)
    }
}
