import ArgumentParser
import SessionForensics
import SessionFormats
import SessionStore

/// The name of a registered migration (`ProfileMigrations`), as `--to` takes it.
struct MigrationName: ExpressibleByArgument {
    let migration: any ProfileMigration

    init?(argument: String) {
        guard let migration = ProfileMigrations.named(argument) else { return nil }
        self.migration = migration
    }

    static var allValueStrings: [String] { ProfileMigrations.names }
    static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}

extension SessionCtl {
    /// `sessionctl migrate`: converts a profile between Chrome's optimized and legacy formats.
    struct Migrate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "migrate",
            abstract:
                "Convert a profile's sessions between Chrome's optimized and legacy formats, or Firefox's legacy archive to window data.",
            discussion: """
                Converts as Chrome does: ids, opener and pinned state from the legacy user data, tab \
                groups, histories, metadata written last. The new tree is written beside the old one \
                and switched in with one rename, so that a crash leaves either the old or the new \
                format live. The old sessions are then set aside under Backups/<SessionID>/<UTC stamp>/ \
                with a manifest.json (as aside push does), never deleted. A run also finishes what an \
                interrupted one left. Regular and incognito (OTR/) sessions are both converted.

                --to window-data takes a Firefox for iOS profile whose tabs are still in its legacy \
                archive (codableTabsState.archive, or tabsState.archive, which today's Firefox no \
                longer reads) and writes window-data/window-<UUID> as Firefox's own one-time \
                migration does: pages, titles, privacy, favicons, creation times and groups kept, \
                histories dropped, each tab's last use set to now. The archive stays; an empty \
                window file Firefox made is set aside first. A profile Firefox has used window files in \
                since its migration is refused (65). sessionctl repair writes the same window keeping each \
                tab's history and last use.
                """
        )

        @Argument(help: "The profile directory.", completion: .directory)
        var path: String

        @Option(name: .long, help: "The format to convert to: optimized or legacy (Chrome for iOS), window-data (Firefox for iOS).")
        var to: MigrationName

        @Flag(name: .long, help: "Print the plan and change nothing.")
        var dryRun = false

        @OptionGroup var output: FormatOption

        func run() throws {
            let run = try to.migration.run(path, toolVersion: SessionCtl.version, dryRun: dryRun)
            Output.profileFoundInside(run.foundInside, of: path)
            switch output.format {
            case .json: Output.document(MigrationDocument.encode(run.plan, outcome: run.outcome))
            case .text: MigrateText.print(run.plan, outcome: run.outcome)
            }
        }
    }
}
