import Foundation
import SessionFormats
import SessionModel
import TestSupport
import Testing

@testable import ChromeIOS
@testable import SessionForensics

/// Repair's plan is made from validate's findings: every step cites a finding that validate
/// reports for the same session of the same input, and the two count alike.
@Suite struct PlanCitesFindingsTests {
    init() { Browsers.install() }

    /// The plan's steps whose rule validate does not report for their session.
    static func uncited(_ profile: String) throws -> (uncited: [String], plan: RepairPlan, report: ValidationReport) {
        let read = InputRead(try InputOpener.open(profile), depth: .rewrite)
        let report = Validator().validate(read)
        let plan = RepairPlanner().plan(read, report: report)
        let reported = Set(report.findings.map { "\($0.incognito)/\($0.session)/\($0.rule.name)" })
        let uncited = plan.actions.filter { !reported.contains("\($0.incognito)/\($0.session)/\($0.rule.name)") }
        return (uncited.map { "[\($0.rule.name)] \($0.file): \($0.action)" }, plan, report)
    }

    @Test(arguments: GalleryTests.cases.map(\.profile))
    func everyStepOfAGalleryPlanCitesAReportedFinding(_ name: String) throws {
        let found = try Self.uncited("\(RepairGalleryTests.gallery)/\(name)")
        #expect(found.uncited.isEmpty, "\(name): \(found.uncited)")
        // The plan does what each rule says repair does: no step for a rule whose repair is
        // none, and every finding of a rule repaired alone either cited by a step or listed as
        // left unrepaired.
        for action in found.plan.actions {
            if case .none = action.rule.repair { Issue.record("\(name): a step for \(action.rule.name), whose repair is none") }
        }
        let cited = Set(found.plan.actions.map { "\($0.incognito)/\($0.session)/\($0.rule.name)" })
        for finding in found.report.findings where finding.rule.repair.repairsAlone {
            let key = "\(finding.incognito)/\(finding.session)/\(finding.rule.name)"
            #expect(cited.contains(key) || found.plan.unrepaired.contains(finding), "\(name): \(key) neither repaired nor listed")
        }
    }

    /// A copy of the gallery's `metadata-garbage` (a session_metadata.pb that does not decode)
    /// with one more entry in its session directory.
    static func lostListWith(directory: String, file: String? = nil) throws -> (root: String, session: String) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("cites-\(UUID().uuidString)").path
        try FileManager.default.copyItem(atPath: "\(RepairGalleryTests.gallery)/metadata-garbage", toPath: root)
        let storage = "\(root)/SessionStorage"
        let session = try #require(try FileManager.default.contentsOfDirectory(atPath: storage).sorted().first)
        try FileManager.default.createDirectory(atPath: "\(storage)/\(session)/\(directory)", withIntermediateDirectories: true)
        if let file { try Data("x".utf8).write(to: URL(fileURLWithPath: "\(storage)/\(session)/\(directory)/\(file)")) }
        return (root, session)
    }

    @Test func aMisnamedDirectoryBesideALostListIsReportedAndCited() throws {
        let (root, _) = try Self.lostListWith(directory: "1a2b", file: "f")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let found = try Self.uncited(root)
        #expect(found.uncited.isEmpty, "\(found.uncited)")
        #expect(found.report.findings.map(\.rule).contains(.tabDirectoryNameInvalid))
        #expect(found.plan.actions.contains { $0.rule == .tabDirectoryNameInvalid && $0.file.hasSuffix("/1a2b") })
    }

    @Test func aTabDirectoryWithNoHistoryBesideALostListIsCountedAlike() throws {
        let (root, _) = try Self.lostListWith(directory: "103f9d71", file: "data.pb")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let found = try Self.uncited(root)
        #expect(found.uncited.isEmpty, "\(found.uncited)")
        let lost = try #require(found.report.findings.first { $0.rule == .metadataUnparsable })
        #expect(lost.message.contains("deletes its 5 tab directories"), "\(lost.message)")
        let rewrite = try #require(found.plan.actions.first { $0.rule == .metadataUnparsable && $0.file == lost.file })
        #expect(rewrite.action.contains("4 of the 5 tab directories"), "\(rewrite.action)")
        #expect(found.plan.actions.contains { $0.rule == .metadataUnparsable && $0.file.hasSuffix("/103f9d71") })
    }

    /// A copy of gallery case `name` whose list is changed by `change`.
    static func changedList(_ name: String, _ change: (inout Session) -> Void) throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("cites-\(UUID().uuidString)").path
        try FileManager.default.copyItem(atPath: "\(RepairGalleryTests.gallery)/\(name)", toPath: root)
        let storage = "\(root)/SessionStorage"
        let session = try #require(try FileManager.default.contentsOfDirectory(atPath: storage).sorted().first)
        let file = "\(storage)/\(session)/session_metadata.pb"
        var list = try ChromeProtoCodec.decodeSessionMetadata(
            [UInt8](try Data(contentsOf: URL(fileURLWithPath: file))), id: session, incognito: false, file: file)
        change(&list)
        try Data(ChromeProtoCodec.encodeSessionMetadata(list)).write(to: URL(fileURLWithPath: file))
        return root
    }

    /// Two tabs with one id, one of them with a count of 0: Chrome drops that one for its count
    /// and keeps the other with the id, so validate reports no duplicate. Repair gives one of them
    /// a fresh id and cites what validate reports, the count of 0, whichever of the two it is.
    @Test(arguments: [false, true])
    func twoTabsWithOneIdOneOfThemWithNoHistoryCiteTheCount(_ laterHasNone: Bool) throws {
        let root = try Self.changedList("tab-id-duplicate") { list in
            // The fourth tab already has the second's id (6); one of the two loses its count.
            list.tabs[laterHasNone ? 3 : 1].navigationItemCount = 0
        }
        defer { try? FileManager.default.removeItem(atPath: root) }
        let found = try Self.uncited(root)
        #expect(found.uncited.isEmpty, "\(found.uncited)")
        #expect(!found.report.findings.contains { $0.rule == .tabIDDuplicate })
        let renamed = try #require(found.plan.actions.first { $0.action.hasPrefix("give tab 3 (#6) the new id") })
        #expect(renamed.rule == .tabNoHistory, "\(renamed.rule.name)")
        #expect(
            renamed.reason.contains(laterHasNone ? "Chrome drops this one for its count of 0" : "Chrome drops tab 1 for its count of 0"))
    }
}
