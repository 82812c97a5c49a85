import ArgumentParser
import SessionForensics

extension SessionCtl.Aside {
    /// `sessionctl aside push`: moves live sessions out of the live tree into Backups/.
    struct Push: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "push",
            abstract: "Move a live session (or every live session of a kind) to Backups/ with a manifest.",
            discussion: """
                Without --session, every live session of that kind is set aside, as Chrome's crash \
                helper did: regular sessions, or incognito ones with --incognito. PATH may also be \
                a session directory inside a profile, which names the session.
                """
        )

        @Argument(help: "The profile directory, or one session directory inside it.", completion: .directory)
        var path: String

        @Option(name: .long, help: "The id of the session (window) to set aside.")
        var session: String?

        @Flag(name: .long, help: "Set aside incognito sessions (those under OTR/).")
        var incognito = false

        @Option(name: .long, help: "Why, recorded in the manifest.")
        var reason = "set aside by sessionctl aside push"

        @OptionGroup var output: FormatOption

        func run() throws {
            let target = try AsideTarget.locate(path, command: "aside", browsers: AsideTarget.asideBrowsers)
            Output.profileFoundInside(target.foundInside, of: path)
            if let named = target.session, let session, session != named {
                throw CommandFailure.usage("\(path) is session \(named), not \(session)")
            }
            let aside = SessionForensics.Aside(profile: target.profile, toolVersion: SessionCtl.version)
            let entries = try aside.whileLocked {
                try aside.push(
                    session: target.session ?? session, incognito: target.session == nil ? incognito : target.incognito,
                    reason: reason)
            }
            switch output.format {
            case .json: Output.document(AsideDocument.encode(entries, browser: target.browser, product: target.product))
            case .text:
                if entries.isEmpty { Output.line("no live sessions to set aside") }
                for entry in entries { asideLines(entry).forEach { Output.line($0) } }
            }
            // A whole kind was set aside: say what the other kind holds, and how to include it.
            if target.session == nil && session == nil {
                let others = (try? aside.liveSessionIDs(incognito: !incognito)) ?? []
                if !others.isEmpty {
                    let kind = incognito ? "regular" : "incognito"
                    let how = incognito ? "without --incognito" : "with --incognito"
                    Output.error(
                        "note: \(others.count) live \(kind) session\(others.count == 1 ? "" : "s") left in place (\(others.joined(separator: ", "))); run aside push \(how) to set \(others.count == 1 ? "it" : "them") aside too"
                    )
                }
            }
        }
    }
}
