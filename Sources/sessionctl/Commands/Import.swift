import ArgumentParser
import SessionFormats
import SessionStore

extension SessionCtl {
    /// `sessionctl import`: writes the sessions of an inspect JSON document as a Chrome profile tree.
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the sessions of an inspect JSON document as a Chrome profile tree.",
            discussion: """
                FILE is a sessionctl.inspect/1 document (from inspect --format json --history). Each \
                session becomes DIR/SessionStorage/<id>/ (incognito ones DIR/OTR/SessionStorage/<id>/) \
                with one data.pb per tab that has a history and session_metadata.pb written last, in \
                Chrome's canonical bytes. Every file is written atomically and durably. An existing \
                session is never overwritten: the command stops with status 73.
                """
        )

        @Argument(help: "The inspect JSON document to import ('-' for standard input).")
        var file: String

        @Option(name: .long, help: "The profile directory to write (created if missing).")
        var out: String

        func run() throws {
            let bytes = try file == "-" ? StandardInput.readAll() : DiskTree.readFile(file, display: file)
            let sessions = try InspectDocument.decode(JSONParser.parse(bytes, file: file), file: file)
            let importer = ProfileImporter(profile: out)
            let written = try importer.importSessions(sessions)
            for path in written { Output.line("wrote \(path)") }
        }
    }
}
