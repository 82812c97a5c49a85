import Foundation
import TestSupport
import Testing

/// Keeps the man pages true: every option of `--help` documented, no page documenting an option
/// that does not exist, and every example runnable as written against the repository's Fixtures.
@Suite struct ManPageTests {
    struct Command {
        var path: [String]
        var longOptions: Set<String>
    }

    /// Every subcommand (nested ones too) with its visible long option names, from `--experimental-dump-help`.
    static func commands() throws -> [Command] {
        let result = try CLI.run(["--experimental-dump-help"])
        let root = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let top = try #require(root["command"] as? [String: Any])
        var found: [Command] = []
        func walk(_ command: [String: Any], path: [String]) {
            for sub in command["subcommands"] as? [[String: Any]] ?? [] {
                guard let name = sub["commandName"] as? String, sub["shouldDisplay"] as? Bool ?? true else { continue }
                if name == "help" { continue }
                var options = Set<String>()
                for argument in sub["arguments"] as? [[String: Any]] ?? [] where argument["shouldDisplay"] as? Bool ?? true {
                    for entry in argument["names"] as? [[String: Any]] ?? [] where entry["kind"] as? String == "long" {
                        if let long = entry["name"] as? String, long != "help", long != "version" { options.insert(long) }
                    }
                }
                found.append(Command(path: path + [name], longOptions: options))
                walk(sub, path: path + [name])
            }
        }
        walk(top, path: [])
        return found
    }

    static func page(for command: Command) throws -> String {
        let name = "sessionctl-\(command.path[0])"
        return try String(contentsOfFile: CLI.path("man/\(name).1"), encoding: .utf8)
    }

    @Test func everyOptionIsDocumented() throws {
        let commands = try Self.commands()
        #expect(commands.count >= 2)
        for command in commands {
            let page = try Self.page(for: command)
            for option in command.longOptions.sorted() {
                #expect(
                    page.contains("Fl \\-\(option)"),
                    "man/sessionctl-\(command.path[0]).1 does not document --\(option) of \(command.path.joined(separator: " "))")
            }
        }
    }

    @Test func noPageDocumentsAMissingOption() throws {
        let commands = try Self.commands()
        var byPage: [String: Set<String>] = [:]
        for command in commands { byPage[command.path[0], default: []].formUnion(command.longOptions) }
        for (name, options) in byPage {
            let page = try String(contentsOfFile: CLI.path("man/sessionctl-\(name).1"), encoding: .utf8)
            for line in page.split(separator: "\n") where line.hasPrefix(".It Fl \\-") {
                let option = line.dropFirst(".It Fl \\-".count).prefix { $0 != " " }
                #expect(
                    options.contains(String(option)) || option == "help" || option == "version",
                    "man/sessionctl-\(name).1 documents --\(option), which the command does not have")
            }
        }
    }

    @Test func everyCommandIsInTheOverviewPage() throws {
        let overview = try String(contentsOfFile: CLI.path("man/sessionctl.1"), encoding: .utf8)
        for command in try Self.commands() where command.path.count == 1 {
            #expect(overview.contains(".It Cm \(command.path[0])"), "sessionctl(1) does not list \(command.path[0])")
            #expect(
                overview.contains("Xr sessionctl-\(command.path[0]) 1"), "sessionctl(1) does not refer to sessionctl-\(command.path[0])(1)")
        }
    }

    /// Runs every example of every page, in order, in a scratch copy of Fixtures/: each `.Dl $ ...`
    /// line, and each `.Bd -literal` block of `$ ...` lines (one shell script: its variables and
    /// continued lines hold).
    @Test(.exhaustive) func examplesRunAsWritten() throws {
        let manDirectory = CLI.path("man")
        let pages = try FileManager.default.contentsOfDirectory(atPath: manDirectory).filter { $0.hasSuffix(".1") }.sorted()
        let binDirectory = URL(fileURLWithPath: CLI.binary).deletingLastPathComponent().path
        for page in pages {
            let sandbox = try CLI.temporaryDirectory("man-example")
            defer { try? FileManager.default.removeItem(atPath: sandbox) }
            try FileManager.default.copyItem(atPath: CLI.path("Fixtures"), toPath: "\(sandbox)/Fixtures")
            try FileManager.default.createDirectory(atPath: "\(sandbox)/tmp", withIntermediateDirectories: true)
            let text = try String(contentsOfFile: "\(manDirectory)/\(page)", encoding: .utf8)
            for command in Self.examples(text) {
                let script =
                    command
                    .replacingOccurrences(of: "\\-", with: "-")
                    .replacingOccurrences(of: "\\(aq", with: "'")
                    .replacingOccurrences(of: "\\e", with: "\\")
                    .replacingOccurrences(of: " /tmp/", with: " \(sandbox)/tmp/")
                    .replacingOccurrences(of: "=/tmp/", with: "=\(sandbox)/tmp/")
                // TMPDIR: a kill example that fails keeps its runs, named in its report, inside the sandbox.
                let result = try CLI.runProgram(
                    "/bin/sh", ["-c", script], environment: ["PATH": "\(binDirectory):/usr/bin:/bin", "TMPDIR": "\(sandbox)/tmp"],
                    in: sandbox)
                #expect(result.status <= 1, "\(page): `\(script)` exited \(result.status): \(result.stderr)")
                #expect(!result.stderr.contains("Fatal error"), "\(page): `\(script)` crashed")
            }
        }
    }

    /// The shell examples of a page, in order: one per `.Dl $` line, one per literal block of `$` lines.
    static func examples(_ page: String) -> [String] {
        var examples: [String] = []
        var block: [String]?
        for line in page.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if var lines = block {
                if line == ".Ed" {
                    if lines.first?.hasPrefix("$ ") == true {
                        examples.append(lines.map { $0.hasPrefix("$ ") ? String($0.dropFirst(2)) : $0 }.joined(separator: "\n"))
                    }
                    block = nil
                } else {
                    lines.append(line)
                    block = lines
                }
            } else if line.hasPrefix(".Bd -literal") {
                block = []
            } else if line.hasPrefix(".Dl $ ") {
                examples.append(String(line.dropFirst(".Dl $ ".count)))
            }
        }
        return examples
    }
}

@Suite struct CompletionTests {
    @Test(arguments: ["bash", "zsh", "fish"])
    func completionScriptsNameEveryCommand(shell: String) throws {
        let result = try CLI.run(["--generate-completion-script", shell])
        #expect(result.status == 0)
        for command in try ManPageTests.commands() where command.path.count == 1 {
            #expect(result.stdout.contains(command.path[0]), "\(shell) completion lacks \(command.path[0])")
        }
    }
}
