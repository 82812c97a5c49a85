import ArgumentParser
import SessionForensics

extension SessionCtl.Aside {
    /// `sessionctl aside list`: the set-aside entries of a profile.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the set-aside entries of a profile, ours and Chrome's own.",
            discussion: "Each entry's name is what aside restore and aside drop take."
        )

        @Argument(help: "The profile directory.", completion: .directory)
        var path: String

        @OptionGroup var output: FormatOption

        func run() throws {
            let target = try AsideTarget.locate(path, command: "aside list", browsers: AsideTarget.asideBrowsers, whileRunning: true)
            Output.profileFoundInside(target.foundInside, of: path)
            let entries = try SessionForensics.Aside(profile: target.profile, toolVersion: SessionCtl.version).list()
            switch output.format {
            case .json: Output.document(AsideDocument.encode(entries, browser: target.browser, product: target.product))
            case .text:
                if entries.isEmpty { Output.line("no set-aside entries") }
                for entry in entries { asideLines(entry).forEach { Output.line($0) } }
            }
        }
    }
}
