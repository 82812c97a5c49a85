import Foundation
import Testing

/// `sessionctl report` through the binary: every fixture and gallery profile gives a page with
/// every tab; an existing file is never replaced; and, where Chromium is installed (CI installs
/// it), the page is loaded in a real browser: every tab is in the DOM, hostile titles made no
/// element, and a screenshot is not blank.
@Suite struct ReportCommandTests {
    static let healthy = CLI.path("Fixtures/profiles/healthy")

    /// The tab ids `inspect` lists for `path`.
    static func tabIDs(_ path: String) throws -> [Int] {
        let result = try CLI.run(["inspect", path, "--format", "json"])
        let document = (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [String: Any]
        return (document?["sessions"] as? [[String: Any]] ?? []).flatMap {
            ($0["tabs"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int }
        }
    }

    static let profiles: [String] = {
        let gallery = CLI.path("Fixtures/gallery")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: gallery)) ?? []
        return ["Fixtures/profiles/healthy", "Fixtures/profiles/legacy"]
            + names.filter { !$0.contains(".") && $0 != "make-gallery" }.sorted().map { "Fixtures/gallery/\($0)" }
    }()

    @Test func everyProfileGivesAPageWithEveryTab() throws {
        let scratch = try CLI.temporaryDirectory("report")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        #expect(Self.profiles.count > 50)
        for (number, profile) in Self.profiles.enumerated() {
            let output = "\(scratch)/\(number).html"
            let result = try CLI.run(["report", CLI.path(profile), "-o", output, "--history"])
            #expect(result.status == 0, "\(profile): \(result.stderr)")
            let page = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            for id in try Self.tabIDs(CLI.path(profile)) {
                #expect(page.contains("data-tab=\"\(id)\""), "\(profile): tab \(id) missing")
            }
            #expect(!page.contains("<script") && !page.contains(" src=\"") && !page.contains(" href=\""), "\(profile)")
        }
    }

    @Test func anExistingFileIsNeverReplacedAndBundlesAreRead() throws {
        let scratch = try CLI.temporaryDirectory("report")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try Data("mine".utf8).write(to: URL(fileURLWithPath: "\(scratch)/r.html"))
        let refused = try CLI.run(["report", Self.healthy, "-o", "\(scratch)/r.html"])
        #expect(refused.status == 73 && refused.stderr.contains("already exists; name another file with -o"))
        #expect(try String(contentsOfFile: "\(scratch)/r.html", encoding: .utf8) == "mine")
        #expect(try CLI.run(["compress", Self.healthy, "-o", "\(scratch)/b.tar.gz"]).status == 0)
        let bundled = try CLI.run(["report", "\(scratch)/b.tar.gz", "-o", "\(scratch)/b.html"])
        #expect(bundled.status == 0 && bundled.stdout.contains("4 windows, 11 tabs"), "\(bundled.stdout)\(bundled.stderr)")
        #expect(try CLI.run(["report", "\(scratch)/missing", "-o", "\(scratch)/m.html"]).status == 66)
    }

    /// A redacted report shows no title and no URL path, not even quoted in a finding's message.
    @Test func aRedactedReportKeepsNoTitleOrPath() throws {
        let scratch = try CLI.temporaryDirectory("report")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        for profile in [
            "Fixtures/gallery/internal-url-sessionrestore", "Fixtures/gallery/group-range-past-end", "Fixtures/profiles/healthy"
        ] {
            let output = "\(scratch)/\(profile.split(separator: "/").last ?? "r").html"
            #expect(try CLI.run(["report", "--redact", "--history", CLI.path(profile), "-o", output]).status == 0)
            let page = try String(contentsOfFile: output, encoding: .utf8)
            let inspected = try CLI.run(["inspect", CLI.path(profile), "--history", "--format", "json"])
            let document = (try? JSONSerialization.jsonObject(with: Data(inspected.stdout.utf8))) as? [String: Any]
            for tab in (document?["sessions"] as? [[String: Any]] ?? []).flatMap({ $0["tabs"] as? [[String: Any]] ?? [] }) {
                if let title = tab["title"] as? String, title.count > 4 { #expect(!page.contains(title), "\(profile): \(title)") }
                if let url = tab["url"] as? String, let path = URL(string: url)?.path, path.count > 4 {
                    #expect(!page.contains(path), "\(profile): \(path)")
                }
            }
        }
        // Unredacted, the same report does show them.
        #expect(try CLI.run(["report", Self.healthy, "-o", "\(scratch)/plain.html"]).status == 0)
        let plain = try String(contentsOfFile: "\(scratch)/plain.html", encoding: .utf8)
        #expect(plain.contains("Inbox") && plain.contains("/world/2026/11/20/story"))
    }

    /// A profile whose titles and URLs are hostile, imported from the healthy fixture's document.
    static func hostileProfile(in scratch: String) throws -> String {
        let source = try Data(contentsOf: URL(fileURLWithPath: CLI.path("Fixtures/profiles/healthy.json")))
        var document = try #require(try JSONSerialization.jsonObject(with: source) as? [String: Any])
        var sessions = try #require(document["sessions"] as? [[String: Any]])
        let hostile = ["<script>document.title='pwned'</script>", "\"><img src=x onerror=alert(1)>", "<b>bold</b>"]
        for index in sessions.indices {
            var tabs = sessions[index]["tabs"] as? [[String: Any]] ?? []
            for tab in tabs.indices { tabs[tab]["title"] = hostile[tab % hostile.count] }
            sessions[index]["tabs"] = tabs
        }
        document["sessions"] = sessions
        try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: "\(scratch)/hostile.json"))
        #expect(try CLI.run(["import", "\(scratch)/hostile.json", "--out", "\(scratch)/hostile"]).status == 0)
        return "\(scratch)/hostile"
    }

    static var chromium: String? {
        ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    /// Loads the report of `profile` in headless Chromium; returns the DOM it built.
    static func dom(of profile: String, browser: String, scratch: String) throws -> String {
        let output = "\(scratch)/report.html"
        #expect(try CLI.run(["report", profile, "-o", output, "--history"]).status == 0)
        let dom = try CLI.runProgram(
            browser, Self.browserArguments(scratch) + ["--dump-dom", "file://\(output)"], environment: ["HOME": scratch], timeout: 90)
        #expect(dom.status == 0 && !dom.timedOut, "\(dom.stderr.suffix(500))")
        return dom.stdout
    }

    static func browserArguments(_ scratch: String) -> [String] {
        ["--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(scratch)/browser", "--window-size=1100,1400"]
    }

    /// A page that loads each report of `reports` in a frame of its own and, once every frame
    /// has loaded, writes what the browser built of each: the `data-tab` values of its elements
    /// and whether it has the summary, in a `<pre id="frame-N">` (one browser for every report).
    static func framesPage(_ reports: [String]) -> String {
        let frames = reports.enumerated().map { "<iframe id=\"\($0.offset)\" src=\"file://\($0.element)\"></iframe>" }
        return """
            <!DOCTYPE html><html><body>\(frames.joined())
            <script>
            window.addEventListener("load", () => {
              for (const frame of document.querySelectorAll("iframe")) {
                const doc = frame.contentDocument;
                const out = document.createElement("pre");
                out.id = "frame-" + frame.id;
                out.textContent = doc === null ? "no document"
                  : [...doc.querySelectorAll("[data-tab]")].map(e => e.getAttribute("data-tab")).join(" ")
                    + (doc.getElementById("summary") === null ? "" : " summary");
                document.body.appendChild(out);
              }
            });
            </script></body></html>
            """
    }

    /// Every profile's report, loaded in one headless Chromium (a frame each): every tab is in
    /// the DOM the browser built, and so is the summary.
    @Test(.enabled(if: chromium != nil, "Chromium is not installed (.ci/run installs it)"))
    func aRealBrowserShowsEveryTab() throws {
        let scratch = try CLI.temporaryDirectory("report")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        var reports: [String] = []
        for (number, profile) in Self.profiles.enumerated() {
            let output = "\(scratch)/\(number).html"
            #expect(try CLI.run(["report", CLI.path(profile), "-o", output, "--history"]).status == 0, "\(profile)")
            reports.append(output)
        }
        try Data(Self.framesPage(reports).utf8).write(to: URL(fileURLWithPath: "\(scratch)/frames.html"))
        let dom = try CLI.runProgram(
            try #require(Self.chromium),
            Self.browserArguments(scratch) + ["--allow-file-access-from-files", "--dump-dom", "file://\(scratch)/frames.html"],
            environment: ["HOME": scratch], timeout: 300)
        #expect(dom.status == 0 && !dom.timedOut, "\(dom.stderr.suffix(500))")
        for (number, profile) in Self.profiles.enumerated() {
            let built = try #require(Self.frameText(dom.stdout, id: "frame-\(number)"), "\(profile): no frame in the DOM")
            let values = Set(built.split(separator: " ").map(String.init))
            for id in try Self.tabIDs(CLI.path(profile)) {
                #expect(values.contains(String(id)), "\(profile): tab \(id) not in the DOM")
            }
            #expect(values.contains("summary"), "\(profile): \(built.prefix(200))")
        }
    }

    /// The text of the `<pre>` whose id is `id` in a dumped DOM.
    static func frameText(_ dom: String, id: String) -> String? {
        guard let start = dom.range(of: "<pre id=\"\(id)\">"), let end = dom[start.upperBound...].range(of: "</pre>") else { return nil }
        return String(dom[start.upperBound..<end.lowerBound])
    }

    @Test(.enabled(if: chromium != nil, "Chromium is not installed (.ci/run installs it)"))
    func hostileTitlesMakeNoElementAndTheScreenshotIsNotBlank() throws {
        let browser = try #require(Self.chromium)
        let scratch = try CLI.temporaryDirectory("report")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let hostile = try Self.hostileProfile(in: scratch)
        let dom = try Self.dom(of: hostile, browser: browser, scratch: scratch)
        for id in try Self.tabIDs(hostile) { #expect(dom.contains("data-tab=\"\(id)\"")) }
        #expect(!dom.contains("<script") && !dom.contains("<img") && !dom.contains("<b>bold"), "an element came from the profile")
        #expect(!dom.contains("<title>pwned"), "a script ran")

        #expect(try CLI.run(["report", Self.healthy, "-o", "\(scratch)/healthy.html", "--history"]).status == 0)
        let shot = try CLI.runProgram(
            browser, Self.browserArguments(scratch) + ["--screenshot=\(scratch)/shot.png", "file://\(scratch)/healthy.html"],
            environment: ["HOME": scratch], timeout: 90)
        #expect(shot.status == 0, "\(shot.stderr.suffix(500))")
        let png = (try? Data(contentsOf: URL(fileURLWithPath: "\(scratch)/shot.png"))) ?? Data()
        // A blank page of that size compresses to a few KiB; the report's text, tables and timeline do not.
        #expect(png.count > 30_000, "screenshot of \(png.count) bytes")
    }

}
