import ArgumentParser
import SessionForensics
import SessionStore

extension SessionCtl {
    /// `sessionctl aside`: sets sessions aside in a profile's Backups/ and brings them back.
    struct Aside: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "aside",
            abstract: "Set sessions aside in a profile's Backups/, list, restore and drop them.",
            discussion: """
                push moves a live session to <profile>/Backups/<SessionID>/<UTC stamp>/ (incognito: \
                <profile>/OTR/Backups/...) with a manifest.json; list shows those entries and Chrome's \
                own Backups/<id>/session.backup.plist; restore moves one back; drop deletes one. \
                push copies by hard links under a hidden name, writes the manifest into the copy, renames \
                it into place and only then removes the live directory; every step is made durable \
                before success is reported. \
                On a Firefox for iOS container, a window's file, its backup and its tabs' session \
                states are set aside together, each at its path in the profile, and restore writes \
                each back atomically. \
                On a Firefox desktop profile, its session files (sessionstore.jsonlz4 and \
                sessionstore-backups/) are set aside together as sessionstore@<stamp>, and on a \
                Chromium desktop profile its Sessions/ files as Sessions@<stamp>, and on Safari for \
                iOS's directory BrowserState.db with its -wal and -shm as browser-state@<stamp>; push and restore \
                refuse while the browser runs with the profile (exit status 75). \
                Commands that change the profile take its lock (exit status 75 when another \
                sessionctl holds it).
                """,
            subcommands: [Push.self, List.self, Restore.self, Drop.self]
        )
    }
}

/// The text lines for one set-aside entry, as `aside list` and `aside push` print them.
func asideLines(_ entry: AsideEntry) -> [String] {
    let kind = entry.incognito ? " (incognito)" : ""
    var by = "set aside by \(entry.origin.rawValue)"
    if let time = entry.time?.iso8601 { by += " at \(time)" }
    if let reason = entry.reason { by += ": \(reason)" }
    if entry.origin == .sessionctl && !entry.hasManifest { by += " (manifest missing)" }
    return [
        "\(entry.name)\(kind)",
        "    \(by)",
        "    \(entry.path), \(entry.files) file\(entry.files == 1 ? "" : "s"), \(entry.bytes) bytes"
    ]
}
