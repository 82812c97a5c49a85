import Foundation
import TestSupport
import Testing

@testable import SessionForensics

/// A list of thousands of broken entries makes a plan of bounded size: at most `FindingCap.limit`
/// steps of one rule are listed per session, the rest counted in one step, as validate counts its
/// findings.
@Suite struct RepairPlanSizeTests {
    init() { Browsers.install() }

    @Test func stepsOfOneRuleAreListedUpToTheCapThenCounted() throws {
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("repair-cap-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: profile) }
        try FileManager.default.createDirectory(atPath: "\(profile)/SessionStorage/S", withIntermediateDirectories: true)
        let entries = FindingCap.limit + 500
        try Data([UInt8](repeating: 0, count: entries * 2).enumerated().map { $0.offset % 2 == 0 ? 0x0a : 0x00 })
            .write(to: URL(fileURLWithPath: "\(profile)/SessionStorage/S/session_metadata.pb"))
        let plan = try Repairer(profile: profile, aside: AsideTestSupport.aside(profile)).run(dryRun: true).plan
        let invalid = plan.actions.filter { $0.rule.name == "tab-id-invalid" }
        #expect(invalid.count == FindingCap.limit + 1)
        #expect(invalid.last?.action == "and 500 more like these in this session, not listed one by one")
        #expect(invalid.first?.action.hasPrefix("give tab 0") == true)
    }
}
