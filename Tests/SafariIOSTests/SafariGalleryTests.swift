import FileSystemKit
import Foundation
import SafariIOS
import SessionForensics
import SessionFormats
import SessionModel
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
        #expect(Self.rows.count == 14)
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

    /// Both clocks Safari has kept read as the same instant: seconds since 2001 (iOS up to 18)
    /// and seconds since 1970 (iOS 26).
    @Test func bothClocksReadAsTheSameInstant() throws {
        var times: [[Timestamp]] = []
        for name in ["ios17-times", "ios26-times"] {
            let input = try InputOpener.open(Repository.path("Fixtures/safari-ios/gallery/\(name)"))
            times.append(try SessionReader(input: input).readAll(history: false).flatMap { $0.tabs.map(\.lastActiveTime) })
        }
        #expect(times[0] == times[1])
        #expect(times[0].first == Timestamp(unixMicroseconds: 1_772_366_400_000_000))
    }

    /// Tabs only in the WAL are read; a torn page's tabs come back from their session states.
    @Test func theWALAndTheStatesGiveWhatTheMainFileLacks() throws {
        for name in ["wal-only", "torn-page"] {
            let input = try InputOpener.open(Repository.path("Fixtures/safari-ios/gallery/\(name)"))
            let tabs = try SessionReader(input: input).readAll(history: true).flatMap(\.tabs)
            #expect(tabs.map(\.url) == ["https://first.example/", "https://second.example/"], "\(name)")
            #expect(tabs.allSatisfy { $0.salvaged == (name == "torn-page") }, "\(name)")
        }
    }
}
