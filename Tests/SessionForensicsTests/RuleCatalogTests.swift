import Foundation
import TestSupport
import Testing

@testable import SessionForensics

/// The rule catalog: stable, unique names; the names docs/cli.md promises; severities that match
/// outcomes.
@Suite struct RuleCatalogTests {
    init() { Browsers.install() }

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
        "internal-url", "mixed-formats", "legacy-unparsable"
    ])
    func cliRuleExists(name: String) {
        #expect(Rule.named(name) != nil)
    }

    /// Every rule says what repair does: what Chrome loses, crashes on, adjusts or deletes is
    /// repaired alone; what repair leaves is only ever information.
    @Test func everyRuleCarriesItsRepair() {
        // A Safari tab whose stored state does not decode: Safari restores it at its URL without
        // history, and no repair has anything that decodes to give it back.
        let nothingToRepair: Set<String> = ["tab-state-damaged"]
        for rule in Rule.all {
            switch rule.repair {
            case .step(let text), .withRewrite(let text), .none(let text):
                #expect(text.hasSuffix(".") && text.count > 10, "\(rule.name)")
            }
            if nothingToRepair.contains(rule.name) {
                #expect(!rule.repair.repairsAlone, "\(rule.name)")
            } else if rule.severity != .info || rule.outcome == .entryDeleted {
                #expect(rule.repair.repairsAlone, "\(rule.name): \(rule.severity) \(rule.outcome) but not repaired alone")
            } else {
                #expect(!rule.repair.repairsAlone, "\(rule.name): information Chrome leaves alone, repaired alone")
            }
        }
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

/// sessionctl-validate(1) lists exactly the rules of the catalog, each with its severity and outcome.
@Suite struct RuleManPageTests {
    init() { Browsers.install() }

    static let page: String = {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return (try? String(contentsOf: repository.appendingPathComponent("man/sessionctl-validate.1"), encoding: .utf8)) ?? ""
    }()

    @Test func everyRuleIsDocumentedWithItsSeverityAndOutcome() {
        let lines = Self.page.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for rule in Rule.all {
            let index = lines.firstIndex(of: ".It Li \(rule.name)")
            #expect(index != nil, "\(rule.name) is not in man/sessionctl-validate.1")
            if let index, index + 1 < lines.count {
                #expect(lines[index + 1] == "\(rule.severity.rawValue), \(rule.outcome.rawValue).", "\(rule.name)")
                let item = lines[(index + 1)...].prefix { !$0.hasPrefix(".It ") && !$0.hasPrefix(".El") }
                #expect(item.contains(rule.repair.manPageLine), "\(rule.name): no line '\(rule.repair.manPageLine)'")
            }
        }
    }

    @Test func thePageDocumentsNoOtherRule() {
        let documented = Self.page.split(separator: "\n").filter { $0.hasPrefix(".It Li ") && $0.contains("-") }
            .map { String($0.dropFirst(".It Li ".count)) }
            .filter { !LaunchOutcome.allCases.map(\.rawValue).contains($0) }
        #expect(Set(documented) == Set(Rule.all.map(\.name)))
    }
}
