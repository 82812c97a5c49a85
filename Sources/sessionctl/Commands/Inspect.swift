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
                Reads each browser's sessions as it keeps them. Chrome for iOS: session_metadata.pb \
                only, unless --history is given, in which case each tab's data.pb is read too; legacy \
                sessions (Sessions/<id>/session.plist) and Chrome's crash backups \
                (Backups/<id>/session.backup.plist) whole. Firefox for iOS (window files, legacy tab \
                archives), Firefox desktop (sessionstore.jsonlz4 and its backups) and Chromium desktop \
                (Chrome, Edge, Brave, Vivaldi, Opera: Session_ and Tabs_ files): each session file \
                whole, its windows and tabs as the browser restores them, tabs read past where the \
                browser stops marked salvaged. Safari for iOS (BrowserState.db with its -wal): read \
                through SQLite on a private copy, and by hand from every page and WAL frame, tabs \
                only the pages hold marked salvaged. A window that cannot be read is listed with its error \
                beside the others (JSON: an errors array) and the status is 1; 65 only when nothing \
                can be read. Reading never changes anything on disk.
                """
        )

        @Argument(
            help:
                "A profile, SessionStorage or Sessions directory, session directory, or session file (Chrome for iOS); a container, profile.profile, window-data directory, window file or tab archive (Firefox for iOS); a profile or session file (Firefox desktop, Chromium desktop); a Safari directory, a home directory or container holding Library/Safari, BrowserState.db, or an iTunes or Finder backup (Safari for iOS); or a .gz or .tar.gz of one.",
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
            let (input, read, salvage, product) = try SettledRead.reading(path) {
                let input = try InputOpener.open(path, browser: browserOption.family)
                let family = BrowserFamilies.family(of: input)
                let inputRead = family.read(input, depth: history ? .histories : .lists, backups: false)
                let product = family.product(of: inputRead)
                let reader = SessionReader(input: input)
                // Tabs read past where the browser stops: the place is named beside them (exit 1).
                return (input, reader.sessions(of: inputRead, history: history), reader.salvageDamage(of: inputRead), product)
            }
            Output.profileFoundInside(input.profileFoundInside, of: path)
            // Nothing readable at all is bad input (65, 66); else what was read is shown, and what
            // was not is listed with its error (exit 1).
            if read.sessions.isEmpty, let first = read.errors.first { throw first.error }
            var sessions = read.sessions
            if redact { sessions = sessions.map(Redactor.redact) }
            func readError(_ failure: (source: SessionSource, error: FormatError)) -> ReadError {
                ReadError(
                    session: failure.source.id, incognito: failure.source.incognito, error: failure.error, input: path,
                    browser: input.browser)
            }
            let unread = read.errors.map(readError)
            let damaged = salvage.map(readError)
            let errors = unread + damaged
            switch output.format {
            case .json:
                // Written a session at a time: a profile's whole document is never held at once.
                InspectDocument.write(sessions, errors: errors, history: history, browser: input.browser, product: product) {
                    Output.bytes($0)
                }
                Output.line()
            case .text:
                InspectText.print(sessions, history: history)
                for (error, what) in unread.map({ ($0, "not readable") }) + damaged.map({ ($0, "salvaged past damage") }) {
                    Output.line()
                    Output.line("\(error.incognito ? "incognito " : "")session \(error.session): \(what): \(error.file): \(error.message)")
                    Output.line("  next: \(error.next)")
                }
                // A family of several browsers says which wrote the input.
                if product != BrowserFamilies.family(of: input).familyProduct {
                    Output.line()
                    Output.line("browser: \(product.displayName) (\(product.evidence))")
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
