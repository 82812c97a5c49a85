import ArgumentParser
import SessionForensics
import SessionFormats
import SessionStore

extension MigrationTarget: ExpressibleByArgument {}

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
        var to: MigrationTarget

        @Flag(name: .long, help: "Print the plan and change nothing.")
        var dryRun = false

        @OptionGroup var output: FormatOption

        func run() throws {
            if to == .windowData {
                try runFirefox()
                return
            }
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

        /// `--to window-data`: a Firefox for iOS profile's legacy archive to a window file.
        private func runFirefox() throws {
            let firefox = FirefoxIOSFamily()
            if let input = try? InputOpener.open(path), input.browser != firefox.name {
                throw FormatError.notASession(
                    path: path,
                    reason:
                        "window-data is Firefox for iOS's format, and this is a \(BrowserFamilies.family(of: input).displayName) profile (its formats: --to optimized or legacy)"
                )
            }
            let target = try AsideTarget.locate(path, command: "migrate", browsers: [firefox.name])
            Output.profileFoundInside(target.foundInside, of: path)
            let (plan, outcome) = try FirefoxMigrator(profile: target.profile, toolVersion: SessionCtl.version).run(dryRun: dryRun)
            switch output.format {
            case .json: Output.document(MigrationDocument.encode(plan, outcome: outcome))
            case .text: MigrateText.print(plan, outcome: outcome)
            }
        }
    }
}
