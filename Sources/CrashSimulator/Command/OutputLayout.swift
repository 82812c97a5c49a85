import SessionForensics
import SessionFormats
import SessionModel
import SessionStore

/// Where compress, decompress and report read and write in the model file system: the input at
/// the profile's path (decompress's bundle beside it, `<profile>.tar.gz`), and the output where
/// the command puts it when not told otherwise, beside the input (`<profile>.tar.gz`, `<profile>`
/// for decompress, and `<profile>.html` for report, which needs one named), in a directory that
/// holds nothing else.
public struct OutputLayout: Sendable, Equatable {
    /// The input's path.
    public let input: String
    /// The output's path.
    public let output: String

    /// The layout of `command` around `profile`; nil for a command that changes a profile.
    init?(_ command: ProfileCommand, profile: String) {
        switch command {
        case .compress:
            input = profile
            output = BundleCompressor.defaultOutput(for: profile, isDirectory: true)
        case .decompress:
            input = profile + ".tar.gz"
            output = BundleExtractor.defaultOutput(for: input) ?? profile
        case .report:
            input = profile
            output = profile + ".html"
        default:
            return nil
        }
    }

    /// Runs `command` from the input to the output as the command line does given these two
    /// paths and no other option, reading and writing through `writer`; `clock` gives compress
    /// the time its manifest records.
    func write(_ command: ProfileCommand, writer: AtomicWriter, clock: @escaping @Sendable () -> Timestamp) throws {
        switch command {
        case .compress:
            _ = try BundleCompressor(tool: "sessionctl crash-test", writer: writer, clock: clock).compress(input, to: output)
        case .decompress:
            _ = try BundleExtractor(writer: writer).decompress(input, to: output)
        case .report:
            let located = try InputOpener.open(input, fileSystem: writer.fileSystem)
            let report = ProfileReport.gather(located, input: input, history: false, redact: false)
            try ReportPage.write(report, to: output, writer: writer)
        default:
            throw SimulatorError.invalidOption(name: "command", value: command.rawValue, reason: "writes no output")
        }
    }
}
