import ArgumentParser
import SessionForensics
import SessionFormats
import SessionStore

extension SessionCtl {
    /// `sessionctl import`: writes the sessions of an inspect JSON document as a Chrome profile tree.
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Write the sessions of an inspect JSON document as a Chrome profile tree.",
            discussion: """
                FILE is a sessionctl.inspect/1 document (from inspect --format json --history). Each \
                session becomes DIR/SessionStorage/<id>/ (incognito ones DIR/OTR/SessionStorage/<id>/) \
                with one data.pb per tab that has a history and session_metadata.pb written last, in \
                Chrome's canonical bytes. Every file is written atomically and durably. An existing \
                session is never overwritten: the command stops with status 73, unless --replace is \
                given, which first sets each existing session aside (as aside push does). A session \
                already there exactly as the document has it is left alone, so that running an \
                interrupted import again finishes it.
                """
        )

        @Argument(help: "The inspect JSON document to import ('-' for standard input; either at most 1 GiB).", completion: .file())
        var file: String

        @Option(name: .long, help: "The profile directory to write (created if missing).", completion: .directory)
        var out: String

        @Flag(name: .long, help: "Set existing sessions of the same id aside (to Backups/) instead of refusing.")
        var replace = false

        func validate() throws {
            try OutputName.check(out, option: "--out")
        }

        func run() throws {
            try CommandFailure.explainingExisting("--replace sets the existing sessions aside to Backups/ first") {
                let bytes = try file == "-" ? StandardInput.readAll() : ReadableTree.readFile(file)
                let sessions = try InspectDocument.decode(JSONParser.parse(bytes, file: file), file: file)
                let aside = SessionForensics.Aside(profile: out, toolVersion: SessionCtl.version)
                let outcome = try SessionImports.writing(out).run(sessions, aside: aside, replace: replace)
                for entry in outcome.setAside { Output.line("set aside \(entry.name)") }
                for path in outcome.written { Output.line("wrote \(path)") }
            }
        }
    }
}
