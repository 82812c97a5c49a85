import Foundation
import SessionFormats
import TestSupport
import Testing

@testable import ChromeIOS
@testable import SessionForensics

/// The gallery of damaged profiles (Fixtures/gallery): each raises the rule its README line names,
/// with that severity and Chrome outcome; the healthy profiles raise nothing.
@Suite struct GalleryTests {
    init() { Browsers.install() }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// One line of the gallery's README table.
    struct Case: Sendable, CustomStringConvertible {
        var profile, rule, severity, chrome, session, what: String
        var description: String { profile }
    }

    /// The rows of a gallery README's table (`Fixtures/<gallery>/README.md`), cells trimmed,
    /// header and separator left out: rows of exactly `columns` cells.
    static func rows(_ gallery: String, columns: Int) -> [[String]] {
        let readme = (try? String(contentsOf: repository.appendingPathComponent("Fixtures/\(gallery)/README.md"), encoding: .utf8)) ?? ""
        return readme.split(separator: "\n").compactMap { line in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == columns + 2, !cells[1].hasPrefix("-") else { return nil }
            return Array(cells[1...columns])
        }
        .dropFirst().map { $0 }
    }

    static let cases: [Case] = rows("gallery", columns: 6).map {
        Case(profile: $0[0], rule: $0[1], severity: $0[2], chrome: $0[3], session: $0[4], what: $0[5])
    }

    /// The lines of Firefox for iOS's gallery (Fixtures/firefox-ios/gallery): case, rule, severity, outcome.
    static let firefoxCases: [Case] = rows("firefox-ios/gallery", columns: 5).map {
        Case(profile: $0[0], rule: $0[1], severity: $0[2], chrome: $0[3], session: "regular", what: $0[4])
    }

    /// The lines of Firefox desktop's gallery (Fixtures/firefox-desktop/gallery): case, rule, severity, outcome.
    static let firefoxDesktopCases: [Case] = rows("firefox-desktop/gallery", columns: 5).map {
        Case(profile: $0[0], rule: $0[1], severity: $0[2], chrome: $0[3], session: "regular", what: $0[4])
    }

    /// The lines of Chromium desktop's gallery (Fixtures/chromium-desktop/gallery): case, rule, severity, outcome.
    static let chromiumDesktopCases: [Case] = rows("chromium-desktop/gallery", columns: 5).map {
        Case(profile: $0[0], rule: $0[1], severity: $0[2], chrome: $0[3], session: "regular", what: $0[4])
    }

    /// The lines of Safari for iOS's gallery (Fixtures/safari-ios/gallery): case, rule, severity, outcome.
    static let safariCases: [Case] = rows("safari-ios/gallery", columns: 5).map {
        Case(profile: $0[0], rule: $0[1], severity: $0[2], chrome: $0[3], session: "regular", what: $0[4])
    }

    @Test func theGalleryCoversEveryRuleOfTheCatalog() {
        #expect(Self.cases.count > 30 && Self.firefoxCases.count > 10 && Self.firefoxDesktopCases.count > 5)
        #expect(Self.chromiumDesktopCases.count > 10)
        #expect(Self.safariCases.count > 4)
        let covered = Set(
            (Self.cases + Self.firefoxCases + Self.firefoxDesktopCases + Self.chromiumDesktopCases + Self.safariCases).map(\.rule))
        #expect(Rule.all.map(\.name).filter { !covered.contains($0) } == [])
    }

    /// Each Firefox for iOS case raises its rule, with that severity and outcome, judged by its family's rulebook.
    @Test(arguments: firefoxCases)
    func firefoxCaseRaisesItsRule(_ entry: Case) throws {
        let input = try InputOpener.open(Self.repository.appendingPathComponent("Fixtures/firefox-ios/gallery/\(entry.profile)").path)
        #expect(input.browser == "firefox-ios")
        let report = BrowserRulebooks.validate(input)
        if entry.rule == "-" {
            #expect(report.findings.isEmpty, "\(report.findings.map(\.message))")
            return
        }
        let matching = report.findings.filter { $0.rule.name == entry.rule }
        #expect(!matching.isEmpty, "\(entry.profile): \(report.findings.map(\.rule.name))")
        for finding in matching {
            #expect(finding.severity.rawValue == entry.severity && finding.outcome.rawValue == entry.chrome, "\(entry.profile)")
        }
    }

    /// Each Firefox desktop case raises its rule, with that severity and outcome, judged by its family's rulebook.
    @Test(arguments: firefoxDesktopCases)
    func firefoxDesktopCaseRaisesItsRule(_ entry: Case) throws {
        let input = try InputOpener.open(Self.repository.appendingPathComponent("Fixtures/firefox-desktop/gallery/\(entry.profile)").path)
        #expect(input.browser == "firefox-desktop")
        let report = BrowserRulebooks.validate(input)
        if entry.rule == "-" {
            #expect(report.findings.isEmpty, "\(report.findings.map(\.message))")
            return
        }
        let matching = report.findings.filter { $0.rule.name == entry.rule }
        #expect(!matching.isEmpty, "\(entry.profile): \(report.findings.map(\.rule.name))")
        for finding in matching {
            #expect(finding.severity.rawValue == entry.severity && finding.outcome.rawValue == entry.chrome, "\(entry.profile)")
        }
    }

    @Test(arguments: cases)
    func profileRaisesItsRule(_ entry: Case) throws {
        let input = try InputOpener.open(Self.repository.appendingPathComponent("Fixtures/gallery/\(entry.profile)").path)
        let report = Validator().validate(input)
        if entry.rule == "-" {
            #expect(report.findings.isEmpty, "\(report.findings.map(\.message))")
            return
        }
        let matching = report.findings.filter { $0.rule.name == entry.rule }
        #expect(!matching.isEmpty, "\(entry.profile): \(report.findings.map(\.rule.name))")
        for finding in matching {
            #expect(finding.severity.rawValue == entry.severity)
            #expect(finding.outcome.rawValue == entry.chrome)
        }
        #expect(matching.contains { $0.incognito == (entry.session == "incognito") })
        if entry.severity == "error" { #expect(report.fails(strict: false)) }
        if entry.severity == "warning" { #expect(report.fails(strict: true)) }
    }

    @Test(arguments: ["Fixtures/profiles/healthy", "Fixtures/gallery/healthy"])
    func healthyFixturesRaiseNothing(path: String) throws {
        let report = Validator().validate(try InputOpener.open(Self.repository.appendingPathComponent(path).path))
        #expect(report.findings.isEmpty, "\(report.findings.map(\.message))")
        #expect(report.sessions > 0 && report.tabs > 0)
    }

    @Test(arguments: ["basic", "groups", "legacy-basic"])
    func corpusRaisesNothing(name: String) throws {
        let corpus = Self.repository.appendingPathComponent("Fixtures/corpus/\(name)").path
        let report = Validator().validate(try InputOpener.open(corpus))
        #expect(report.findings.isEmpty, "\(report.findings.map(\.message))")
    }
}
