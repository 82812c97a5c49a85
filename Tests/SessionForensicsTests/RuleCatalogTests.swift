import Testing
@testable import SessionForensics

/// The rule catalog: stable, unique names; the names cli.md promises; severities that match outcomes.
@Suite struct RuleCatalogTests {
    @Test func namesAreUniqueAndKebabCase() {
        let names = Rule.all.map(\.name)
        #expect(Set(names).count == names.count)
        for name in names {
            #expect(name.allSatisfy { $0.isLowercase || $0 == "-" }, "\(name)")
        }
    }

    @Test(arguments: [
        "metadata-missing", "metadata-unparsable", "tab-id-invalid", "tab-id-duplicate", "tab-no-history",
        "tab-directory-missing", "tab-data-missing", "tab-data-unparsable", "active-index-out-of-range",
        "pinned-count-out-of-range", "opener-out-of-range", "group-range-invalid", "group-id-duplicate",
        "group-id-zero", "enum-out-of-range", "history-too-long", "last-committed-out-of-range",
        "item-count-mismatch", "active-page-mismatch", "unreferenced-entry", "state-too-large",
        "internal-url", "mixed-formats", "legacy-unparsable",
    ])
    func cliRuleExists(name: String) {
        #expect(Rule.named(name) != nil)
    }

    @Test func lossAndCrashesAreErrors() {
        for rule in Rule.all where [.sessionLost, .tabLost, .crash].contains(rule.outcome) {
            #expect(rule.severity == .error, "\(rule.name)")
        }
        for rule in Rule.all where rule.outcome == .adjusted {
            #expect(rule.severity == .warning, "\(rule.name)")
        }
    }
}
