import ArgumentParser
import FileSystemKit
import SessionForensics
import SessionFormats

extension SessionCtl {
    /// `sessionctl validate`: checks sessions against Chrome's format and says what Chrome would do.
    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "validate",
            abstract: "Check sessions against their browser's format and predict what the browser would do with each problem.",
            discussion: """
                Every finding names a rule, a severity (error: loses data or crashes the browser; warning: \
                the browser silently adjusts something; info: worth knowing) and what the browser (Chrome \
                for iOS, Firefox for iOS, Firefox desktop, a Chromium desktop browser or Safari for iOS) would do on its next launch: session-lost, tab-lost, \
                entry-deleted, crash, adjusted or none. Damaged files \
                are findings too, with the offset of the first bad byte. Validate reads each file at most \
                once and never changes anything on disk; it waits while another sessionctl command changes the profile \
                (75 after ten seconds). Exit status: 0 when there are no errors \
                (warnings allowed unless --strict), 1 otherwise, 66 when PATH is missing. The rules are \
                listed in sessionctl-validate(1).
                """
        )

        @Argument(
            help:
                "A profile, SessionStorage or Sessions directory, session directory, or session file (Chrome for iOS); a container, profile.profile, window-data directory, window file or tab archive (Firefox for iOS); a profile or session file (Firefox desktop, Chromium desktop); a Safari directory, a home directory or container holding Library/Safari, BrowserState.db, or an iTunes or Finder backup (Safari for iOS); or a .gz or .tar.gz of one.",
            completion: .file())
        var path: String

        @Flag(name: .long, help: "Fail (exit status 1) on warnings too, not only on errors.")
        var strict = false

        @OptionGroup var output: FormatOption

        @OptionGroup var browserOption: BrowserOption

        func run() throws {
            // Settled: a window a repair is swapping in is read before or after, never missing.
            let (input, report) = try SettledRead.reading(path) {
                let input = try InputOpener.open(path, browser: browserOption.family)
                return (input, BrowserRulebooks.validate(input))
            }
            Output.profileFoundInside(input.profileFoundInside, of: path)
            switch output.format {
            case .json: Output.document(ValidationDocument.encode(report))
            case .text:
                // A gzip file given itself (not a member path through one), known from the read.
                let isBundle = input.isBundle && POSIXFileSystem().resolvedKind(of: path) == .file
                ValidateText.print(report, path: path, isBundle: isBundle)
            }
            if report.fails(strict: strict) { throw CommandFailure.exit(ExitStatus.findings) }
        }
    }
}
