import ArgumentParser
import BrowserRegistry
import Foundation
import SessionFormats

/// The `sessionctl` root command: browser session crash recovery and forensics, for every browser
/// the registry lists (`BrowserRegistry`).
@main
struct SessionCtl: ParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "sessionctl",
        abstract: "Inspect, validate, repair and crash-test browser sessions.",
        discussion: """
            Reads the sessions of \(BrowserFamilies.all.map(\.displayName).joined(separator: ", ")). \
            PATH arguments accept a browser's profile directory, a directory of its sessions, \
            one session directory or file, or a .gz file or .tar.gz bundle of any of them. Exit statuses follow sysexits: 64 usage, \
            65 bad input, 66 missing input, 70 internal error, 73 cannot create output, 74 I/O error, \
            75 profile locked. See sessionctl(1).
            """,
        version: version,
        subcommands: [
            Inspect.self, Import.self, Validate.self, Repair.self, Diff.self, Aside.self, Compress.self, Decompress.self, CrashTest.self,
            Migrate.self, Report.self
        ]
    )

    /// Runs the command line, mapping every error to the exit statuses of the contract in one place.
    static func main() {
        BrowserRegistry.install()
        if let index = ArgumentEncoding.firstInvalidArgument() {
            Output.error(ArgumentEncoding.message(for: index))
            Foundation.exit(ExitStatus.usage)
        }
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let status = ExitStatus.of(error)
            if let failure = error as? CommandFailure, failure.message == nil {
                // The command's output already said everything (diff: differences found).
            } else if let message = ExitStatus.message(for: error) {
                Output.error(message)
            } else {
                // Help, version and usage errors are printed by ArgumentParser itself.
                exit(withError: error)
            }
            Output.flush()
            Foundation.exit(status)
        }
        Output.flush()
    }
}
