import ArgumentParser
import SessionFormats
import SessionModel

extension SessionCtl {
    /// `sessionctl inspect`: lists sessions (windows) and their tabs.
    struct Inspect: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "inspect",
            abstract: "List the sessions (windows) of a profile and their tabs.",
            discussion: """
                Reads session_metadata.pb only, unless --history is given, in which case each tab's \
                data.pb is read too. A window that cannot be read is listed with its error beside \
                the others (JSON: an errors array) and the status is 1; 65 only when nothing can be read. Legacy sessions (Sessions/<id>/session.plist) and Chrome's crash \
                backups (Backups/<id>/session.backup.plist) are read whole. Reading never changes \
                anything on disk.
                """
        )

        @Argument(
            help:
                "A profile, SessionStorage or Sessions directory, session directory, or session file (Chrome for iOS); a container, profile.profile, window-data directory, window file or tab archive (Firefox for iOS); a profile or session file (Firefox desktop, Chromium desktop); or a .gz or .tar.gz of one.",
            completion: .file())
        var path: String

        @Flag(name: .long, help: "Also read each tab's navigation history (data.pb).")
        var history = false

        @Flag(name: .long, help: "Replace URL paths, queries and titles (keeping scheme and host), for sharing.")
        var redact = false

        @OptionGroup var output: FormatOption

        @OptionGroup var browserOption: BrowserOption

        func run() throws {
            // Settled: a window a repair is swapping in is read before or after, never missing.
            let (input, read) = try SettledRead.reading(path) {
                let input = try InputOpener.open(path, browser: browserOption.family)
                return (input, SessionReader(input: input).readEach(history: history))
            }
            Output.profileFoundInside(input.profileFoundInside, of: path)
            // Nothing readable at all is bad input (65, 66); else what was read is shown, and what
            // was not is listed with its error (exit 1).
            if read.sessions.isEmpty, let first = read.errors.first { throw first.error }
            var sessions = read.sessions
            if redact { sessions = sessions.map(Redactor.redact) }
            let errors = read.errors.map {
                ReadError(session: $0.source.id, incognito: $0.source.incognito, error: $0.error, input: path, browser: input.browser)
            }
            switch output.format {
            case .json:
                // Written a session at a time: a profile's whole document is never held at once.
                InspectDocument.write(sessions, errors: errors, history: history, browser: input.browser) { Output.bytes($0) }
                Output.line()
            case .text:
                InspectText.print(sessions, history: history)
                for error in errors {
                    Output.line()
                    Output.line(
                        "\(error.incognito ? "incognito " : "")session \(error.session): not readable: \(error.file): \(error.message)")
                    Output.line("  next: \(error.next)")
                }
                if !input.chromeBackups.isEmpty {
                    let count = input.chromeBackups.count
                    Output.line(
                        "note: \(count) session\(count == 1 ? "" : "s") set aside by Chrome's crash helper under Backups/ (inspect that directory to list them)"
                    )
                }
            }
            if !errors.isEmpty { throw CommandFailure.exit(ExitStatus.findings) }
        }
    }
}
