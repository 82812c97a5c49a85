import ArgumentParser
import SessionForensics
import SessionFormats

extension SessionCtl {
    /// `sessionctl compress`: a file to gzip, a directory to a `.tar.gz` bundle with a manifest.
    struct Compress: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "compress",
            abstract: "Compress a file to gzip or mozLz4, or a directory to a .tar.gz bundle with a manifest.",
            discussion: """
                A file becomes FILE.gz (gzip, with its name and modification time in the header). A \
                directory becomes DIR.tar.gz: a POSIX tar archive holding the directory under its own \
                name, then MANIFEST.json with the tool's version, the time, and every file's path, \
                size and SHA-256. Both are readable by gzip -d and tar -xzf, and every reading command \
                of sessionctl reads them in place. With -o naming a mozLz4 file (.jsonlz4, .baklz4, \
                .mozlz4, upgrade.jsonlz4-<build>), a file is written in Firefox's mozLz4 container \
                instead (one LZ4 block, by liblz4), as Firefox writes its session store. Deflate runs on every core, in 128 KiB blocks that \
                make the same bytes whatever the number of cores. The output is written to a \
                temporary file beside it and appears only when complete; an existing output is never \
                replaced (status 73).
                """
        )

        @Argument(help: "The file or directory to compress.", completion: .file())
        var path: String

        @Option(
            name: [.short, .customLong("output")],
            help:
                "The file to write (default: PATH.gz, or PATH.tar.gz for a directory; a .jsonlz4, .baklz4 or .mozlz4 name writes mozLz4).",
            completion: .file())
        var output: String?

        @Option(name: .long, help: "Compression level, 0 (store) to 9 (smallest); 6 is gzip's default.")
        var level: Int = 6

        @OptionGroup var format: FormatOption

        func validate() throws {
            try OutputName.check(output, option: "-o")
            guard (0...9).contains(level) else { throw ValidationError("--level must be 0 to 9") }
        }

        func run() throws {
            try CommandFailure.explainingExisting("name another file with -o, or move that one away first") {
                let compressor = BundleCompressor(level: level, tool: "sessionctl \(SessionCtl.version)")
                let result = try compressor.compress(path, to: output)
                switch format.format {
                case .json:
                    Output.document(
                        JSONValue.object(
                            [("schema", .string("sessionctl.compress/1"))] + BrowserFamilies.recognisedMembers(path) + [
                                ("input", .string(path)), ("output", .string(result.output)),
                                ("kind", .string(result.kind.rawValue)), ("files", .int(Int64(result.files))),
                                ("inputBytes", .int(result.inputBytes)), ("outputBytes", .int(result.outputBytes)),
                                ("skipped", .array(result.skipped.map(JSONValue.string)))
                            ]))
                case .text:
                    let what =
                        switch result.kind {
                        case .gzip: "gzip"
                        case .mozLz4: "mozLz4"
                        case .bundle: "bundle of \(result.files) file\(result.files == 1 ? "" : "s")"
                        }
                    Output.line("wrote \(result.output): \(what), \(result.inputBytes) bytes in, \(result.outputBytes) bytes out")
                    for skipped in result.skipped { Output.line("skipped \(skipped): not a file, directory or symbolic link") }
                }
            }
        }
    }
}
