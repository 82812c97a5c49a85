import ArgumentParser
import SessionForensics

extension SessionCtl.Aside {
    /// `sessionctl aside restore`: moves an entry back into place.
    struct Restore: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "restore",
            abstract: "Move a set-aside entry back into place; it then leaves the list.",
            discussion: """
                Refuses (exit status 73) when a live session is in the way, unless --force, which \
                sets the live session aside first.
                """
        )

        @Argument(help: "The profile directory.", completion: .directory)
        var path: String

        @Argument(help: "The entry, as aside list names it: <SessionID>@<UTC stamp> or <SessionID>@chrome.")
        var entry: String

        @Flag(name: .long, help: "Set a live session in the way aside first instead of refusing.")
        var force = false

        func run() throws {
            let target = try AsideTarget.locate(path)
            Output.profileFoundInside(target.foundInside, of: path)
            let aside = SessionForensics.Aside(profile: target.profile, toolVersion: SessionCtl.version)
            let outcome = try aside.whileLocked { try aside.restore(entry, force: force) }
            if let displaced = outcome.displaced {
                Output.line("set aside the live session first as \(displaced.name) (\(displaced.path))")
            }
            Output.line("restored \(outcome.restored.name) to \(outcome.destination)")
            if outcome.shadowed {
                Output.line("note: Chrome reads SessionStorage/ rather than Sessions/, so it ignores this legacy session until it is migrated")
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
            let target = try AsideTarget.locate(path)
            Output.profileFoundInside(target.foundInside, of: path)
            let aside = SessionForensics.Aside(profile: target.profile, toolVersion: SessionCtl.version)
            let dropped = try aside.whileLocked { try aside.drop(entry) }
            Output.line("dropped \(dropped.name) (\(dropped.files) file\(dropped.files == 1 ? "" : "s"), \(dropped.bytes) bytes)")
        }
    }
}
