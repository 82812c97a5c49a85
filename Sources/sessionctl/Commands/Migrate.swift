import ArgumentParser
import SessionForensics
import SessionStore

extension MigrationTarget: ExpressibleByArgument {}

extension SessionCtl {
    /// `sessionctl migrate`: converts a profile between Chrome's optimized and legacy formats.
    struct Migrate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "migrate",
            abstract: "Convert a profile's sessions between Chrome's optimized and legacy formats.",
            discussion: """
                Converts as Chrome does: ids, opener and pinned state from the legacy user data, tab \
                groups, histories, metadata written last. The new tree is written beside the old one \
                and switched in with one rename, so that a crash leaves either the old or the new \
                format live. The old sessions are then set aside under Backups/<SessionID>/<UTC stamp>/ \
                with a manifest.json (as aside push does), never deleted. A run also finishes what an \
                interrupted one left. Regular and incognito (OTR/) sessions are both converted.
                """
        )

        @Argument(help: "The profile directory.", completion: .directory)
        var path: String

        @Option(name: .long, help: "The format to convert to: optimized or legacy.")
        var to: MigrationTarget

        @Flag(name: .long, help: "Print the plan and change nothing.")
        var dryRun = false

        @OptionGroup var output: FormatOption

        func run() throws {
            let target = try AsideTarget.locate(path, command: "migrate")
            Output.profileFoundInside(target.foundInside, of: path)
            guard target.session == nil else {
                throw CommandFailure.usage("\(path) is one session; migrate converts a whole profile (give the profile directory)")
            }
            let migrator = Migrator(profile: target.profile, toolVersion: SessionCtl.version)
            let (plan, outcome) = try migrator.run(to: to, dryRun: dryRun)
            switch output.format {
            case .json: Output.document(MigrationDocument.encode(plan, outcome: outcome))
            case .text: MigrateText.print(plan, outcome: outcome)
            }
        }
    }
}
