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
                Sessions are matched by id and incognito flag, tabs by tab id (with --history, two \
                tabs of one id whose histories share no page and whose creation times differ are \
                two tabs). Reports sessions added \
                and removed; tabs added (+), removed (-), moved (>) and changed (~); active index, \
                pinned count and groups. A tab counts as moved only when its order relative to the \
                other tabs changed, not when a tab added or removed elsewhere shifted it. When A and \
                B are each a single session (a session directory or file), those two are compared \
                whatever their ids. A session that cannot be read on either side is left out of the \
                comparison and listed with its error (JSON: an unreadable array); 65 only when a side \
                has nothing readable. Exit status 0 when identical, 1 when different or partly unreadable.
                """
        )

        @Argument(
            help:
                "The first input (the old side): a profile, SessionStorage or Sessions directory, session directory, set-aside entry, or session file (Chrome for iOS); a Firefox for iOS container, window-data directory or window file; a Firefox desktop or Chromium desktop profile or session file; a Safari for iOS directory or BrowserState.db; or a .gz or .tar.gz of one.",
            completion: .file())
        var a: String

        @Argument(help: "The second input (the new side), of any of the same kinds.", completion: .file())
        var b: String

        @Flag(name: .long, help: "Also read each tab's data.pb and compare navigation histories item by item.")
        var history = false

        @OptionGroup var output: FormatOption

        @OptionGroup var browserOption: BrowserOption

        func run() throws {
            // Each side is a settled read: a window a repair is swapping in is read before or after.
            func read(
                _ path: String
            ) throws -> (
                LocatedInput, (sessions: [Session], errors: [(source: SessionSource, error: FormatError)]), BrowserProduct
            ) {
                try SettledRead.reading(path) {
                    let input = try InputOpener.open(path, browser: browserOption.family)
                    let family = BrowserFamilies.family(of: input)
                    let inputRead = family.read(input, depth: history ? .histories : .lists, backups: false)
                    return (input, SessionReader(input: input).sessions(of: inputRead, history: history), family.product(of: inputRead))
                }
            }
            let (before, readA, productA) = try read(a)
            let (after, readB, productB) = try read(b)
            // Each side shows what it can: a session that cannot be read on either side is left
            // out of the comparison and reported as such; a side with nothing readable is bad input.
            let sides = [("a", a, readA), ("b", b, readB)]
            let browsers = ["a": before.browser, "b": after.browser]
            for (_, _, read) in sides where read.sessions.isEmpty {
                if let first = read.errors.first { throw first.error }
            }
            let unreadable = sides.flatMap { side, path, read in
                read.errors.map {
                    (
                        side: side,
                        error: ReadError(
                            session: $0.source.id, incognito: $0.source.incognito, error: $0.error, input: path,
                            browser: browsers[side] ?? "")
                    )
                }
            }
            let skipped = Set(unreadable.map { ($0.error.incognito ? "OTR/" : "") + $0.error.session })
            // Two files that each hold several windows (two Session_ files of a Chromium profile, two
            // Firefox desktop session files): windows are matched by their place in the file.
            let byPlace = before.kind == .file && after.kind == .file && before.sessions.count == 1 && after.sessions.count == 1
            func compared(_ sessions: [Session]) -> [Session] {
                sessions.filter { !skipped.contains(($0.incognito ? "OTR/" : "") + $0.id) }.map { session in
                    guard byPlace, let place = session.id.lastIndex(of: "#") else { return session }
                    var placed = session
                    placed.id = String(session.id[place...])
                    return placed
                }
            }
            let diff = Differ.compare(
                compared(sides[0].2.sessions), compared(sides[1].2.sessions),
                pairingLoneSessions: Self.isSingleSession(before) && Self.isSingleSession(after))
            switch output.format {
            case .json:
                Output.document(
                    DiffDocument.encode(
                        diff, unreadable: unreadable, browsers: (before.browser, after.browser), products: (productA, productB)))
            case .text:
                DiffText(color: Output.useColor).print(diff)
                for (side, error) in unreadable {
                    Output.line()
                    Output.line(
                        "\(error.incognito ? "incognito " : "")session \(error.session) not compared: not readable in \(side == "a" ? "A" : "B"): \(error.file): \(error.message)"
                    )
                    Output.line("  next: \(error.next)")
                }
            }
            if !diff.identical || !unreadable.isEmpty { throw CommandFailure.exit(ExitStatus.findings) }
        }

        /// True when an input is one session given directly (a session directory or file).
        static func isSingleSession(_ input: LocatedInput) -> Bool {
            (input.kind == .sessionDirectory || input.kind == .file) && input.sessions.count == 1
        }
    }
}
