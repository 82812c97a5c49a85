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
                data.pb is read too. Legacy sessions (Sessions/<id>/session.plist) and Chrome's crash \
                backups (Backups/<id>/session.backup.plist) are read whole. Reading never changes \
                anything on disk.
                """
        )

        @Argument(help: "A profile, SessionStorage or Sessions directory, session directory, or session file; or a .gz or .tar.gz of one.", completion: .file())
        var path: String

        @Flag(name: .long, help: "Also read each tab's navigation history (data.pb).")
        var history = false

        @Flag(name: .long, help: "Replace URL paths, queries and titles (keeping scheme and host), for sharing.")
        var redact = false

        @OptionGroup var output: FormatOption

        func run() throws {
            let input = try InputOpener.open(path)
            var sessions = try SessionReader(input: input).readAll(history: history)
            if redact { sessions = sessions.map(Redactor.redact) }
            switch output.format {
            case .json:
                // Written a session at a time: a profile's whole document is never held at once.
                InspectDocument.write(sessions, history: history) { Output.bytes($0) }
                Output.line()
            case .text:
                InspectText.print(sessions, history: history)
                if !input.chromeBackups.isEmpty {
                    let count = input.chromeBackups.count
                    Output.line("note: \(count) session\(count == 1 ? "" : "s") set aside by Chrome's crash helper under Backups/ (inspect that directory to list them)")
                }
            }
        }
    }
}
