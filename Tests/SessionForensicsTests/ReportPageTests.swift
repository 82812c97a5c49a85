import Foundation
import SessionFormats
import SessionModel
import TestSupport
import Testing

@testable import SessionForensics

/// The HTML report: escaping in one place, every tab on the page, nothing from the profile able
/// to add markup, nothing outside the page referred to.
@Suite struct ReportPageTests {
    init() { Browsers.install() }

    static let hostile = [
        "<script>alert(1)</script>", "\"><img src=x onerror=alert(1)>", "' onmouseover='alert(1)", "&lt;b&gt; & &amp;",
        "</title><script>x</script>", "]]><!--", "\u{0}\u{7}\u{1B}[31m", "日本語 \u{202E}"
    ]

    /// The rows' byte writer escapes as `HTML.escape` does, and writes numbers as Swift does.
    @Test(arguments: hostile + ["plain title", "https://example.com/?a=1&b=2", ""])
    func rowBytesEscapeAsTheOneFunctionDoes(_ text: String) {
        var bytes = HTMLBytes()
        bytes.markup("<td>")
        bytes.text(text)
        bytes.markup("</td>")
        #expect(String(decoding: bytes.bytes, as: UTF8.self) == "<td>" + HTML.escape(text) + "</td>")
        for number in [0, 7, 10, -1, -10, 1_234_567_890, Int(Int32.min), Int(Int32.max), Int.min, Int.max] {
            var written = HTMLBytes()
            written.number(number)
            #expect(String(decoding: written.bytes, as: UTF8.self) == String(number))
        }
    }

    /// The eight-bytes-at-a-time scan that lets most text through without a copy agrees with a
    /// byte-by-byte look at every scalar up to U+00FF in every position of a word and its tail.
    @Test func wordScanAgreesWithByteScan() {
        func byByte(_ text: String) -> Bool {
            text.utf8.contains { $0 < 0x20 || [0x22, 0x26, 0x27, 0x3C, 0x3E, 0x7F, 0xC2].contains($0) }
        }
        for value in UInt32(0)...0xFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            for position in 0..<19 {
                var scalars = String.UnicodeScalarView(repeating: "a", count: 18)
                scalars.insert(scalar, at: scalars.index(scalars.startIndex, offsetBy: position))
                let text = String(scalars)
                #expect(HTML.needsEscaping(text) == byByte(text), "U+\(String(value, radix: 16)) at \(position)")
            }
        }
        #expect(!HTML.needsEscaping(String(repeating: "Ab9é日本 ", count: 40)))
    }

    @Test(arguments: hostile)
    func escapingLeavesNoMarkupAndReadsBack(_ text: String) {
        let escaped = HTML.escape(text)
        #expect(!escaped.contains("<") && !escaped.contains(">") && !escaped.contains("\"") && !escaped.contains("'"))
        #expect(escaped.unicodeScalars.allSatisfy { $0.value >= 0x20 || $0 == "\t" || $0 == "\n" })
        if !text.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
            #expect(HTML.unescape(escaped) == text)
        }
    }

    /// A window whose titles and URLs are hostile.
    static func hostileSession() -> Session {
        var session = DiffTestData.session([1, 2, 3, 4, 5, 6, 7, 8])
        for (index, text) in hostile.enumerated() {
            session.tabs[index].title = text
            session.tabs[index].url = "https://example.com/" + text
            session.tabs[index].history = TabHistory(lastCommittedIndex: 0, items: [NavigationItem(url: "javascript:" + text, title: text)])
        }
        session.groups = [TabGroup(start: 0, count: 2, title: hostile[1], color: .grey, id: TabGroupID(high: 1, low: 2))]
        return session
    }

    static func report(_ sessions: [Session]) -> ProfileReport {
        ProfileReport(
            input: "<input>", history: true, redacted: false, sessions: sessions, errors: [],
            validation: ValidationReport(findings: [], sessions: sessions.count, tabs: sessions.reduce(0) { $0 + $1.tabs.count }),
            entries: [], chromeBackups: [])
    }

    @Test func hostileTextCannotAddMarkup() {
        let page = ReportPage.render(Self.report([Self.hostileSession()]))
        var plain = Self.hostileSession()
        for index in plain.tabs.indices {
            plain.tabs[index].title = "x"
            plain.tabs[index].url = "https://example.com/x"
            plain.tabs[index].history = TabHistory(lastCommittedIndex: 0, items: [NavigationItem(url: "javascript:x", title: "x")])
        }
        plain.groups[0].title = "x"
        // Tags and quoted attributes come from the page alone: the text's brackets and quotes are references.
        for tag in ["<script", "<img", "<!--", "onerror=\"", "onmouseover=\"", "onmouseover='"] {
            #expect(!page.contains(tag), "\(tag) appears in the page")
        }
        // The page's markup is the same whatever the text: as many tags as with plain text.
        let tags = { (html: String) in html.filter { $0 == "<" }.count }
        #expect(tags(page) == tags(ReportPage.render(Self.report([plain]))))
        #expect(page.contains(HTML.escape(Self.hostile[0])))
    }

    @Test func everyTabIsOnThePageAndNothingOutsideIsReferred() {
        let sessions = [Self.hostileSession(), DiffTestData.session([11, 12], id: "B")]
        let page = ReportPage.render(Self.report(sessions))
        for session in sessions {
            for tab in session.tabs { #expect(page.contains("data-tab=\"\(tab.id)\"")) }
        }
        for reference in ["src=\"", "href=\"", "url(", "@import", "<link", "<script", "<iframe", "<object"] {
            #expect(!page.contains(reference), "\(reference) in the page")
        }
        #expect(page.contains("<svg class=\"timeline\""))
    }

    /// Every other place text from a profile reaches: findings, unreadable windows, set-aside
    /// entries, Chrome's backups; and values that would overflow the page's arithmetic.
    @Test func everyValueFromTheProfileIsEscapedAndNoneTraps() {
        var session = DiffTestData.session([1, 2])
        session.tabs[0].creationTime = Timestamp(microseconds: .min + 1)
        session.tabs[1].lastActiveTime = Timestamp(microseconds: .max)
        session.groups = [TabGroup(start: 1, count: .max, title: "g", id: TabGroupID(high: 1, low: 1))]
        let text = Self.hostile[1]
        let finding = Finding(
            rule: Rule.all[0], session: "S", incognito: false, tab: TabReference(index: 0, id: 1), file: text, offset: nil, message: text)
        let loose = Finding(rule: Rule.all[0], session: text, incognito: true, tab: nil, file: text, offset: nil, message: text)
        var report = Self.report([session])
        report.validation = ValidationReport(findings: [finding, loose], sessions: 2, tabs: 2)
        report.errors = [
            ReadError(session: text, incognito: false, error: .unreadable(path: text, reason: text), input: text, browser: "chrome-ios")
        ]
        report.entries = [
            ProfileReport.Entry(path: text, session: text, incognito: false, reason: text, time: .null, files: 1, problem: text)
        ]
        report.chromeBackups = [ProfileReport.ChromeBackup(path: text, tabs: nil, problem: text)]
        let page = ReportPage.render(report)
        #expect(!page.contains("<img") && !page.contains("onerror=\""))
        #expect(page.contains("id=\"other-findings\""), "a finding of a window without a section is listed")
        #expect(page.components(separatedBy: HTML.escape(text)).count > 8)
    }

    @Test func theNextCommandsOfABundleUnpackItFirst() {
        var report = Self.report([DiffTestData.session([1])])
        report.input = "/tmp/my ticket.tar.gz"
        report.bundle = true
        report.errors = [
            ReadError(
                session: "S", incognito: false, error: .unreadable(path: "x", reason: "y"), input: report.input, browser: "chrome-ios")
        ]
        let page = ReportPage.render(report)
        #expect(page.contains(HTML.escape("sessionctl decompress '/tmp/my ticket.tar.gz' -o DIR")))
        #expect(page.contains("sessionctl repair --dry-run DIR"))
    }

    /// The report takes its histories from validation's decoding: the sessions it shows are the
    /// ones a reader reads, histories and all, on every fixture and gallery profile that reads.
    @Test func theReportShowsWhatAReaderReads() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let gallery = root.appendingPathComponent("Fixtures/gallery").path
        let names = try FileManager.default.contentsOfDirectory(atPath: gallery).filter { !$0.contains(".") && $0 != "make-gallery" }
        let paths = names.map { "\(gallery)/\($0)" } + [root.appendingPathComponent("Fixtures/profiles/healthy").path]
        for path in paths {
            let input = try InputOpener.open(path)
            let read = SessionReader(input: input).readEach(history: true)
            let report = ProfileReport.gather(input, input: path, history: true, redact: false)
            #expect(report.sessions == read.sessions, "\(path)")
            #expect(report.errors.count == read.errors.count, "\(path)")
        }
    }
}
