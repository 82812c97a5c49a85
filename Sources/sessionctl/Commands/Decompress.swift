import ArgumentParser
import SessionForensics
import SessionFormats

extension SessionCtl {
    /// `sessionctl decompress`: a gzip file or `.tar.gz` bundle back to a file or directory.
    struct Decompress: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "decompress",
            abstract: "Decompress a gzip file, a .tar.gz bundle or a mozLz4 file, safely.",
            discussion: """
                Reads files made by compress, gzip and tar -czf, and Firefox's mozLz4 files \
                (sessionstore.jsonlz4, recovery.baklz4, ...); the kind is told from the content. \
                A mozLz4 file becomes the JSON it holds (sessionstore.json; recovery.baklz4 becomes \
                recovery.bak); a block that is cut short or damaged writes nothing (status 65, with \
                the byte where decoding stopped and how much of it decodes). \
                A gzip file becomes the file it holds; a tar archive becomes the directory OUT with \
                the archive's members inside (for a bundle made by compress, the bundled directory \
                itself, after every file is checked against MANIFEST.json). Members that would land \
                outside OUT (absolute paths, '..', paths through a symbolic link, links pointing out) \
                and devices are refused, and decompression stops at --max-size: in both cases, and \
                for a damaged stream (status 65, with the byte offset), nothing is written. An \
                existing OUT is never replaced (status 73).
                """
        )

        @Argument(help: "The .gz, .tar.gz or mozLz4 file.", completion: .file())
        var file: String

        @Option(
            name: [.short, .customLong("output")],
            help: "The file or directory to create (default: FILE without .gz, .tgz or .tar.gz, or a mozLz4 file's plain name).",
            completion: .file())
        var output: String?

        @Option(name: .customLong("max-size"), help: "Stop when the decompressed data exceeds this size (bytes, or with K, M, G, T).")
        var maxSize = ByteSize(bytes: BundleExtractor.defaultMaxSize)

        @Flag(
            name: .long,
            help:
                "For a Firefox mozLz4 session file: write its JSON with every URL and title redacted and form data, cookies, storage, history state and serialized principals removed (any other input is refused)."
        )
        var redact = false

        @OptionGroup var format: FormatOption

        func validate() throws {
            try OutputName.check(output, option: "-o")
        }

        func run() throws {
            try CommandFailure.explainingExisting("name another path with -o, or move that one away first") {
                guard let target = output ?? BundleExtractor.defaultOutput(for: file) else {
                    throw CommandFailure.usage(
                        "\(file): name does not end in .gz, .tgz, .tar.gz, .jsonlz4, .baklz4 or .mozlz4; give the output with -o")
                }
                let result = try BundleExtractor(maxSize: maxSize.bytes, redact: redact).decompress(file, to: target)
                switch format.format {
                case .json:
                    Output.document(
                        JSONValue.object(
                            [("schema", .string("sessionctl.decompress/1"))] + BrowserFamilies.recognisedMembers(result.output) + [
                                ("input", .string(file)), ("output", .string(result.output)),
                                ("kind", .string(result.kind.rawValue)), ("files", .int(Int64(result.files))),
                                ("bytes", .int(result.bytes)),
                                ("manifestVerified", result.verifiedFiles.map { .int(Int64($0)) } ?? .null)
                            ]))
                case .text:
                    var line = "wrote \(result.output): "
                    switch result.kind {
                    case .file: line += "\(result.bytes) bytes"
                    case .mozLz4: line += "\(result.bytes) bytes of JSON from a mozLz4 file"
                    case .directory: line += "\(result.files) file\(result.files == 1 ? "" : "s")"
                    }
                    if let verified = result.verifiedFiles { line += ", manifest verified (\(verified) file\(verified == 1 ? "" : "s"))" }
                    Output.line(line)
                }
            }
        }
    }
}
