import ArgumentParser
import SessionForensics

extension SessionCtl.Aside {
    /// `sessionctl aside restore`: moves an entry back into place.
    struct Restore: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "restore",
            abstract: "Move a set-aside entry back into place; it then leaves the list.",
            discussion: """
                Every file of the entry is read back first and checked against its manifest (size \
                and SHA-256), and Chrome's session.backup.plist must decode: an entry with a file \
                missing, changed, unreadable, unlisted or of a kind a restore would drop is refused \
                (exit status 65, naming the file and why), unless --partial, which restores only the \
                files that verify, names each one left behind, keeps the entry whole in Backups/, \
                and exits 65 when none verifies or the window's list file does not. Refuses (exit status 73) when a live session is in \
                the way, unless --force, which sets the live session aside first.
                """
        )

        @Argument(help: "The profile directory.", completion: .directory)
        var path: String

        @Argument(help: "The entry, as aside list names it: <SessionID>@<UTC stamp> or <SessionID>@chrome.")
        var entry: String

        @Flag(name: .long, help: "Set a live session in the way aside first instead of refusing.")
        var force = false

        @Flag(name: .long, help: "Restore only the files that read and verify; the entry stays, holding the rest.")
        var partial = false

        func run() throws {
            let target = try AsideTarget.locate(path, command: "aside restore", browsers: AsideTarget.asideBrowsers)
            Output.profileFoundInside(target.foundInside, of: path)
            let aside = SessionForensics.Aside(profile: target.profile, toolVersion: SessionCtl.version)
            let outcome = try aside.whileLocked { try aside.restore(entry, force: force, partial: partial) }
            if let displaced = outcome.displaced {
                Output.line("set aside the live session first as \(displaced.name) (\(displaced.path))")
            }
            if outcome.leftBehind.isEmpty {
                Output.line("restored \(outcome.restored.name) to \(outcome.destination)")
            } else {
                Output.line(
                    "restored \(outcome.restoredFiles.count) of \(outcome.restoredFiles.count + outcome.leftBehind.count) files of \(outcome.restored.name) to \(outcome.destination); the entry stays, holding every file"
                )
                for problem in outcome.leftBehind {
                    Output.line("  left behind \(problem.path): \(problem.reason)")
                }
            }
            if outcome.shadowed {
                Output.line(
                    "note: Chrome reads SessionStorage/ rather than Sessions/, so it ignores this legacy session until it is migrated")
            }
        }
    }

    /// `sessionctl aside drop`: deletes an entry.
    struct Drop: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "drop", abstract: "Delete a set-aside entry.")

        @Argument(help: "The profile directory.", completion: .directory)
        var path: String

        @Argument(help: "The entry, as aside list names it: <SessionID>@<UTC stamp> or <SessionID>@chrome.")
        var entry: String

        func run() throws {
            let target = try AsideTarget.locate(path, command: "aside drop", browsers: AsideTarget.asideBrowsers, whileRunning: true)
            Output.profileFoundInside(target.foundInside, of: path)
            let aside = SessionForensics.Aside(profile: target.profile, toolVersion: SessionCtl.version)
            let dropped = try aside.whileLocked { try aside.drop(entry) }
            Output.line("dropped \(dropped.name) (\(dropped.files) file\(dropped.files == 1 ? "" : "s"), \(dropped.bytes) bytes)")
        }
    }
}
