import ArgumentParser
import SessionFormats

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

/// `--browser NAME`: read the input as that browser family's, instead of recognising it.
struct BrowserOption: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Read the input as this browser's (\(BrowserFamilies.names.joined(separator: ", "))) instead of recognising it by its content.",
            valueName: "name"),
        completion: .list(BrowserFamilies.names))
    var browser: String?

    func validate() throws {
        if let browser, BrowserFamilies.named(browser) == nil {
            throw ValidationError("unknown browser '\(browser)': one of \(BrowserFamilies.names.joined(separator: ", "))")
        }
    }

    /// The family named, when one is.
    var family: (any BrowserFamily)? { browser.flatMap(BrowserFamilies.named) }
}
