import FileSystemKit
import Foundation
import SafariIOS
import SessionForensics
import SessionFormats
import TestSupport
import Testing

/// Fixtures/safari-ios/gallery: validate raises the rule each case's line of its README names,
/// with its severity and outcome, and nothing else; the healthy case raises nothing.
struct SafariGalleryTests {
    init() { Browsers.install() }

    static let rows: [[String]] = {
        let readme = (try? String(contentsOfFile: Repository.path("Fixtures/safari-ios/gallery/README.md"), encoding: .utf8)) ?? ""
        return readme.split(separator: "\n").compactMap { line -> [String]? in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 7, !cells[1].hasPrefix("-"), cells[1] != "case" else { return nil }
            return Array(cells[1...5])
        }
    }()

    @Test func theTableListsEveryCase() throws {
        let directories = try FileManager.default.contentsOfDirectory(atPath: Repository.path("Fixtures/safari-ios/gallery")).filter {
            $0 != "README.md"
        }
        #expect(Set(Self.rows.map { $0[0] }) == Set(directories))
        #expect(Self.rows.count == 6)
    }

    @Test(arguments: rows)
    func eachCaseRaisesItsRule(row: [String]) throws {
        let input = try InputOpener.open(Repository.path("Fixtures/safari-ios/gallery/\(row[0])"))
        #expect(input.browser == "safari-ios")
        let findings = BrowserRulebooks.validate(input).findings
        if row[1] == "-" {
            #expect(findings.isEmpty)
        } else {
            #expect(findings.map(\.rule.name) == [row[1]])
            #expect(findings.first.map { "\($0.rule.severity)" } == row[2])
            #expect(findings.first?.rule.outcome.rawValue == row[3])
        }
    }
}
