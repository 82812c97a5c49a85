import Foundation
import SessionFormats
import Testing

/// `sessionctl` reading legacy session.plist input: Chrome's backups, and damage as exit statuses.
@Suite struct LegacyInputTests {
    static func corpusPlist() -> String {
        "\(CLI.corpus)/legacy-basic/Sessions/{SyntheticIdentifier}/session.plist"
    }

    static func sessions(_ stdout: String) throws -> [[String: Any]] {
        let document = try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any]
        return document?["sessions"] as? [[String: Any]] ?? []
    }

    @Test func chromeBackupsAreReadAsFileDirectoryAndBackupsFolder() throws {
        let plist = Self.corpusPlist()
        let profile = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let backup = "\(profile)/Backups/{SyntheticIdentifier}"
        try FileManager.default.createDirectory(atPath: backup, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: plist, toPath: "\(backup)/session.backup.plist")
        for path in ["\(profile)/Backups", backup, "\(backup)/session.backup.plist"] {
            let result = try CLI.run(["inspect", path, "--format", "json"])
            #expect(result.status == 0, "\(path): \(result.stderr)")
            let sessions = try Self.sessions(result.stdout)
            #expect(sessions.count == 1)
            #expect(sessions.first?["id"] as? String == "{SyntheticIdentifier}")
            #expect(sessions.first?["format"] as? String == "legacy")
            #expect((sessions.first?["tabs"] as? [Any])?.count == 3)
        }
        let profileText = try CLI.run(["inspect", profile])
        #expect(profileText.status == 0)
        #expect(profileText.stdout.contains("no sessions"))
        #expect(profileText.stdout.contains("Backups/"))
    }

    @Test func truncatedPlistIsStatus65WithOffset() throws {
        let plist = Self.corpusPlist()
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let session = "\(directory)/Sessions/S"
        try FileManager.default.createDirectory(atPath: session, withIntermediateDirectories: true)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: plist))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: "\(session)/session.plist"))
        let result = try CLI.run(["inspect", directory])
        #expect(result.status == 65)
        #expect(result.stderr.hasPrefix("sessionctl: \(directory)/Sessions/S/session.plist: damaged at byte "))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func cyclicArchiveIsStatus65() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // A window whose sessions array holds the window itself.
        let archive: PlistValue = .dictionary([
            "$archiver": .string("NSKeyedArchiver"), "$version": .integer(100_000), "$top": .dictionary(["root": .uid(1)]),
            "$objects": .array([
                .string("$null"),
                .dictionary(["$class": .uid(2), "sessions": .uid(3), "selectedIndex": .integer(0)]),
                .dictionary(["$classname": .string("SessionWindowIOS"), "$classes": .array([.string("SessionWindowIOS")])]),
                .dictionary(["$class": .uid(4), "NS.objects": .array([.uid(1)])]),
                .dictionary(["$classname": .string("NSArray"), "$classes": .array([.string("NSArray")])])
            ])
        ])
        let file = "\(directory)/session.plist"
        try Data(BinaryPlistWriter.encode(archive)).write(to: URL(fileURLWithPath: file))
        let result = try CLI.run(["inspect", file])
        #expect(result.status == 65)
        #expect(result.stderr.contains("cycle"))
    }
}
