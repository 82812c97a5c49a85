import ArgumentParser

/// The output format option shared by every reporting command.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text
    case json
}

/// `--format text|json`.
struct FormatOption: ParsableArguments {
    @Option(name: .long, help: "Output format: text (for people) or json (for scripts).")
    var format: OutputFormat = .text
}
