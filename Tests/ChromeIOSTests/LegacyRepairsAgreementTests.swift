import SessionFormats
import SessionModel
import TestSupport
import Testing

@testable import ChromeIOS
@testable import SessionForensics

/// The validator's legacy rules and the repairs migrate applies (LegacyWindow.repairedAsChromeLoads)
/// describe the same silent changes of Chrome's legacy reader: on any window they name the same
/// tabs for the same kinds of change, and a repaired window raises none of those rules. A last
/// committed index below -1 is no repair: Chrome keeps it (`last-committed-negative`).
@Suite struct LegacyRepairsAgreementTests {
    init() { Browsers.install() }

    static let ruleOfKind: [LegacyRepair.Kind: String] = [
        .selectedIndexOutOfRange: "legacy-selected-index-out-of-range", .tabIDInvalid: "legacy-tab-id-invalid",
        .lastCommittedOutOfRange: "legacy-last-committed-out-of-range", .lastActiveBeforeCreation: "legacy-time-order",
        .pinnedAfterUnpinned: "legacy-pinned-not-prefix", .userAgentUnknown: "legacy-user-agent-unknown"
    ]

    /// Windows made of every combination of a few awkward values, chosen by a seeded generator.
    static func windows() -> [LegacyWindow] {
        var generator = SplitMix64(seed: 0x5E55_10C7)
        let ids: [Int64?] = [nil, -3, 0, 1, 2, 2, Int64(Int32.max), Int64(Int32.max) + 1]
        let committed: [Int64] = [-5, -1, 0, 1, 2, 9]
        let times: [Int64] = [0, -1, 13_408_173_600_000_000, 13_408_173_700_000_000]
        let words: [String?] = [nil, "AUTOMATIC", "DESKTOP", "desktop", "TABLET", ""]
        let selections: [Int64] = [-1, 0, 2, 5, LegacyWindow.notFound, Int64.max]
        return (0..<400).map { _ in
            let count = Int(generator.next() % 5)
            let tabs = (0..<count).map { _ in
                LegacyTab(
                    uniqueIdentifier: ids[Int(generator.next() % UInt64(ids.count))],
                    lastCommittedItemIndex: committed[Int(generator.next() % UInt64(committed.count))],
                    items: Array(repeating: NavigationItem(url: "https://a.example/"), count: Int(generator.next() % 3)),
                    userAgentKey: words[Int(generator.next() % UInt64(words.count))],
                    creationTime: Timestamp(microseconds: times[Int(generator.next() % UInt64(times.count))]),
                    lastActiveTime: Timestamp(microseconds: times[Int(generator.next() % UInt64(times.count))]),
                    pinned: generator.next() % 2 == 0)
            }
            return LegacyWindow(selectedIndex: selections[Int(generator.next() % UInt64(selections.count))], tabs: tabs)
        }
    }

    @Test func rulesAndRepairsAgree() {
        let scope = FindingScope(session: "S", incognito: false, file: "session.plist")
        for window in Self.windows() {
            let repairs = Set(
                window.repairedAsChromeLoads().repairs.filter { !$0.isBenign }.map { "\(Self.ruleOfKind[$0.kind] ?? "?")@\($0.tab ?? -1)" })
            let findings = LegacyRules.check(window, scope: scope)
            let silent = Set(findings.filter { $0.rule != .lastCommittedNegative }.map { "\($0.rule.name)@\($0.tab?.index ?? -1)" })
            #expect(repairs == silent, "\(window)")
            let kept = findings.filter { $0.rule == .lastCommittedNegative }.map(\.tab?.index)
            #expect(LegacyRules.check(window.repairedAsChromeLoads().window, scope: scope).map(\.tab?.index) == kept)
            #expect(kept.count == window.tabs.filter { !$0.items.isEmpty && $0.lastCommittedItemIndex < -1 }.count)
        }
    }
}
