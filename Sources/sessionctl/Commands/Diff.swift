import ArgumentParser
import SessionForensics
import SessionFormats
import SessionModel

extension SessionCtl {
    /// `sessionctl diff`: compares two profiles, session directories or files tab by tab.
    struct Diff: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "diff",
            abstract: "Compare two profiles, sessions or session files tab by tab.",
            discussion: """
                Sessions are matched by id and incognito flag, tabs by tab id. Reports sessions added \
                and removed; tabs added (+), removed (-), moved (>) and changed (~); active index, \
                pinned count and groups. A tab counts as moved only when its order relative to the \
                other tabs changed, not when a tab added or removed elsewhere shifted it. When A and \
                B are each a single session (a session directory or file), those two are compared \
                whatever their ids. Exit status 0 when identical, 1 when different.
                """
        )

        @Argument(help: "The first input (the old side): a profile, SessionStorage or Sessions directory, session directory, set-aside entry, or session file; or a .gz or .tar.gz of one.", completion: .file())
        var a: String

        @Argument(help: "The second input (the new side), of any of the same kinds.", completion: .file())
        var b: String

        @Flag(name: .long, help: "Also read each tab's data.pb and compare navigation histories item by item.")
        var history = false

        @OptionGroup var output: FormatOption

        func run() throws {
            let before = try InputOpener.open(a)
            let after = try InputOpener.open(b)
            let diff = Differ.compare(
                try SessionReader(input: before).readAll(history: history),
                try SessionReader(input: after).readAll(history: history),
                pairingLoneSessions: Self.isSingleSession(before) && Self.isSingleSession(after))
            switch output.format {
            case .json: Output.document(DiffDocument.encode(diff))
            case .text: DiffText(color: Output.useColor).print(diff)
            }
            if !diff.identical { throw CommandFailure.exit(ExitStatus.findings) }
        }

        /// True when an input is one session given directly (a session directory or file).
        static func isSingleSession(_ input: LocatedInput) -> Bool {
            (input.kind == .sessionDirectory || input.kind == .file) && input.sessions.count == 1
        }
    }
}
