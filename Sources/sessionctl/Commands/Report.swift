import ArgumentParser
import SessionForensics
import SessionFormats
import SessionStore

extension SessionCtl {
    /// `sessionctl report`: one self-contained HTML page about a profile, bundle or session.
    struct Report: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "report",
            abstract: "Write one self-contained HTML page about a profile, bundle or session.",
            discussion: """
                The page holds a summary (the browser, windows regular, incognito and inactive, tabs, \
                set-aside entries, Chrome for iOS's crash backups where it keeps them, validate's \
                findings by severity, the commands to run next), each window's tabs in order with \
                their findings and what the browser will do, \
                a timeline of every tab from creation to last activity (navigations as ticks with \
                --history, set-asides as dashed lines), the windows that cannot be read, and the \
                set-aside entries with the state of their manifests. CSS and SVG are inline; the \
                page has no script and refers to nothing outside itself, so it opens offline in any \
                browser. Every title, URL and message from the profile is escaped: none can add \
                markup. The file is written to a temporary name beside it and appears only when \
                complete; an existing file is never replaced (status 73).
                """
        )

        @Argument(
            help:
                "A profile, SessionStorage or Sessions directory, session directory, or session file (Chrome for iOS); a container, profile.profile, window-data directory, window file or tab archive (Firefox for iOS); a profile or session file (Firefox desktop, Chromium desktop); a Safari directory, a home directory or container holding Library/Safari, BrowserState.db, or an iTunes or Finder backup (Safari for iOS); or a .gz or .tar.gz of one.",
            completion: .file())
        var path: String

        @Option(name: [.short, .customLong("output")], help: "The HTML file to write.", completion: .file(extensions: ["html"]))
        var output: String

        @Flag(name: .long, help: "Also read each tab's navigation history (data.pb) and show it.")
        var history = false

        @Flag(name: .long, help: "Replace URL paths, queries and titles (keeping scheme and host), for sharing.")
        var redact = false

        @OptionGroup var browserOption: BrowserOption

        func validate() throws {
            try OutputName.check(output, option: "-o")
        }

        func run() throws {
            // Settled: a window a repair is swapping in is read before or after, never missing.
            let (input, report) = try SettledRead.reading(path) {
                let input = try InputOpener.open(path, browser: browserOption.family)
                return (input, ProfileReport.gather(input, input: path, history: history, redact: redact))
            }
            Output.profileFoundInside(input.profileFoundInside, of: path)
            try CommandFailure.explainingExisting("name another file with -o, or move that one away first") {
                try ReportPage.write(report, to: output)
            }
            let tabs = report.sessions.reduce(0) { $0 + $1.tabs.count }
            Output.line(
                "wrote \(output): \(report.sessions.count) window\(report.sessions.count == 1 ? "" : "s"), \(tabs) tab\(tabs == 1 ? "" : "s"), \(report.validation.findings.count) finding\(report.validation.findings.count == 1 ? "" : "s")\(report.errors.isEmpty ? "" : ", \(report.errors.count) not readable")"
            )
        }
    }
}
