import ArgumentParser
import SessionForensics
import SessionFormats

extension SessionCtl {
    /// `sessionctl repair`: fixes what validate finds, saving every tab that can be saved.
    struct Repair: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "repair",
            abstract: "Fix what validate finds, saving every tab that can be saved.",
            discussion: """
                Prints the plan (what, why, and the validate rule each step fixes), then what was done. \
                Every session directory or session file it changes is first set aside to Backups/, as \
                aside push does (with a manifest of every file's size and SHA-256), then written anew \
                atomically; nothing is edited in place and nothing is deleted. Chrome for iOS: a damaged \
                or missing session_metadata.pb is rebuilt from the tab directories, a damaged data.pb \
                keeps its complete items, a tab without usable history gets one item from its list \
                entry, invalid or repeated ids get fresh ones; a legacy Sessions/<id>/session.plist with \
                findings is written anew as current Chrome loads it (it stays a session.plist). Firefox \
                for iOS, Firefox desktop and Chromium desktop: the file the browser loads is written \
                anew (window-data/window-<UUID>, sessionstore.jsonlz4, a new Session_ file) holding \
                every tab that can be read, as the browser reads it. Safari for iOS: BrowserState.db is \
                written anew through SQLite with every row that can be read (its -wal and -shm set \
                aside with it, then removed). Running it again changes nothing. Exit \
                status: 0 when the profile validates clean afterwards, 1 when something could not be \
                repaired, 75 when another sessionctl holds the profile's lock.
                """
        )

        @Argument(help: "A profile directory, or one session directory inside a profile.", completion: .directory)
        var path: String

        @Flag(name: .customLong("dry-run"), help: "Print the plan, and the findings and exit status the run would leave, changing nothing.")
        var dryRun = false

        @OptionGroup var output: FormatOption

        @OptionGroup var browserOption: BrowserOption

        func run() throws {
            let (target, located) = try AsideTarget.locateReading(path, command: "repair", browsers: Set(BrowserFamilies.names))
            Output.profileFoundInside(target.foundInside, of: path)
            let aside = SessionForensics.Aside(profile: target.profile, toolVersion: SessionCtl.version)
            let repairer = Repairer(profile: target.profile, aside: aside, browser: browserOption.family)
            let result = try repairer.run(session: target.session.map { ($0, target.incognito) }, dryRun: dryRun, located: located)
            switch output.format {
            case .json: Output.document(RepairDocument.encode(result))
            case .text: RepairText.print(result)
            }
            if !result.isClean { throw CommandFailure.exit(ExitStatus.findings) }
        }
    }
}
