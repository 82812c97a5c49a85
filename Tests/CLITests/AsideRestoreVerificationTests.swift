import Foundation
import Testing

/// `aside restore` reads every file of an entry back before anything goes live: an entry that no
/// longer matches its manifest, holds a link or special file, or is a Chrome backup that does not
/// decode is refused with 65 (with --force too); --partial restores what verifies and keeps the entry.
@Suite struct AsideRestoreVerificationTests {
    static let session = AsideCommandTests.regular

    /// A copy of the healthy profile whose regular session is set aside; returns its entry's name and path.
    private func setAside() throws -> (directory: String, profile: String, name: String, path: String) {
        let (directory, profile) = try AsideCommandTests.copyOfHealthy()
        let push = try CLI.run(["aside", "push", profile, "--session", Self.session])
        #expect(push.status == 0, "\(push.stderr)")
        let entry = try #require(try AsideCommandTests.entries(profile).first)
        let name = try #require(entry["entry"] as? String)
        let path = try #require(entry["path"] as? String)
        return (directory, profile, name, "\(profile)/\(path)")
    }

    /// The first tab's data.pb of the entry (relative to it).
    private func someTabFile(_ entry: String) throws -> String {
        let tabs = try FileManager.default.contentsOfDirectory(atPath: entry).filter { $0.count == 8 }.sorted()
        return "\(try #require(tabs.first))/data.pb"
    }

    @Test func anEntryThatNoLongerMatchesItsManifestIsRefused() throws {
        let (directory, profile, name, entry) = try setAside()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = try someTabFile(entry)
        try Data([0x0A, 0x01]).write(to: URL(fileURLWithPath: "\(entry)/\(file)"))
        let result = try CLI.run(["aside", "restore", profile, name])
        #expect(result.status == 65, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains(file) && result.stderr.contains("--partial"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(profile)/SessionStorage/\(Self.session)"))
        #expect(try AsideCommandTests.entries(profile).count == 1)
    }

    @Test func anEntryHoldingALinkOrAFIFOIsRefusedRatherThanRestoredWithoutIt() throws {
        for special in ["link", "fifo"] {
            let (directory, profile, name, entry) = try setAside()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            if special == "link" {
                try FileManager.default.createSymbolicLink(atPath: "\(entry)/extra", withDestinationPath: "/etc/hostname")
            } else {
                #expect(mkfifo("\(entry)/extra", 0o600) == 0)
            }
            let result = try CLI.run(["aside", "restore", profile, name], timeout: 60)
            #expect(result.status == 65, "\(special): \(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains("extra"), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: "\(profile)/SessionStorage/\(Self.session)"))
        }
    }

    @Test func aChromeBackupThatDoesNotDecodeIsRefusedEvenWithForce() throws {
        let (directory, profile) = try AsideCommandTests.copyOfHealthy()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let backup = "\(profile)/Backups/\(Self.session)"
        try FileManager.default.createDirectory(atPath: backup, withIntermediateDirectories: true)
        try Data(count: 512).write(to: URL(fileURLWithPath: "\(backup)/session.backup.plist"))
        let before = AsideCommandTests.files(profile)
        for force in [false, true] {
            let result = try CLI.run(["aside", "restore", profile, "\(Self.session)@chrome"] + (force ? ["--force"] : []))
            #expect(result.status == 65, "force \(force): \(result.stdout)\(result.stderr)")
        }
        let partial = try CLI.run(["aside", "restore", profile, "\(Self.session)@chrome", "--force", "--partial"])
        #expect(partial.status == 65, "\(partial.stdout)\(partial.stderr)")
        #expect(AsideCommandTests.files(profile) == before, "nothing changed, the live session not set aside")
    }

    @Test func aChromeBackupThatIsAFIFOIsListedAndRefused() throws {
        let (directory, profile) = try AsideCommandTests.copyOfHealthy()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let backup = "\(profile)/Backups/\(Self.session)"
        try FileManager.default.createDirectory(atPath: backup, withIntermediateDirectories: true)
        #expect(mkfifo("\(backup)/session.backup.plist", 0o600) == 0)
        let list = try CLI.run(["aside", "list", profile], timeout: 60)
        #expect(list.status == 0 && list.stdout.contains("\(Self.session)@chrome"), "\(list.stdout)\(list.stderr)")
        let restore = try CLI.run(["aside", "restore", profile, "\(Self.session)@chrome", "--force"], timeout: 60)
        #expect(restore.status == 65, "\(restore.stdout)\(restore.stderr)")
    }

    @Test func partialRestoresWhatVerifiesNamesTheRestAndKeepsTheEntry() throws {
        let (directory, profile, name, entry) = try setAside()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = try someTabFile(entry)
        let kept = try Data(contentsOf: URL(fileURLWithPath: "\(entry)/session_metadata.pb"))
        try Data([0x0A, 0x01]).write(to: URL(fileURLWithPath: "\(entry)/\(file)"))
        let result = try CLI.run(["aside", "restore", profile, name, "--partial"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("left behind \(file)"), "\(result.stdout)")
        let live = "\(profile)/SessionStorage/\(Self.session)"
        #expect(FileManager.default.contents(atPath: "\(live)/session_metadata.pb") == kept)
        #expect(!FileManager.default.fileExists(atPath: "\(live)/\(file)"))
        #expect(!FileManager.default.fileExists(atPath: "\(live)/manifest.json"))
        #expect(FileManager.default.fileExists(atPath: "\(entry)/\(file)"), "the entry keeps what was left behind")
        #expect(try AsideCommandTests.entries(profile).count == 1)
    }
}

/// A partial restore needs the window's list file: without it no window loads, and the restored
/// tab files would look like the remains of a set-aside to the next command.
@Suite struct PartialRestoreListFileTests {
    @Test func aPartialRestoreWithoutItsListFileIsRefused() throws {
        let (directory, profile) = try AsideCommandTests.copyOfHealthy()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try CLI.run(["aside", "push", profile, "--session", AsideCommandTests.regular]).status == 0)
        let entry = try #require(try AsideCommandTests.entries(profile).first)
        let name = try #require(entry["entry"] as? String)
        let path = try #require(entry["path"] as? String)
        try Data([0x0A]).write(to: URL(fileURLWithPath: "\(profile)/\(path)/session_metadata.pb"))
        let result = try CLI.run(["aside", "restore", profile, name, "--partial"])
        #expect(result.status == 65, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("list file"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(profile)/SessionStorage/\(AsideCommandTests.regular)"))
    }

    @Test func restoreAndImportWriteNothingThroughALinkedSessionStorage() throws {
        let (directory, profile) = try AsideCommandTests.copyOfHealthy()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try CLI.run(["aside", "push", profile, "--session", AsideCommandTests.regular]).status == 0)
        let name = try #require(try AsideCommandTests.entries(profile).first?["entry"] as? String)
        let outside = "\(directory)/outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try FileManager.default.removeItem(atPath: "\(profile)/SessionStorage")
        try FileManager.default.createSymbolicLink(atPath: "\(profile)/SessionStorage", withDestinationPath: outside)
        let restore = try CLI.run(["aside", "restore", profile, name])
        #expect(restore.status == 65, "\(restore.stdout)\(restore.stderr)")
        #expect(try AsideCommandTests.entries(profile).count == 1)
        let document = try CLI.run(["inspect", CLI.path("Fixtures/profiles/healthy"), "--history", "--format", "json"])
        let imported = try CLI.run(["import", "-", "--out", profile], stdin: Data(document.stdout.utf8))
        #expect(imported.status == 65, "\(imported.stdout)\(imported.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside).isEmpty)
    }

    @Test(arguments: [["aside", "push"], ["repair"], ["aside", "list"]])
    func anEmptyPathIsNoProfile(command: [String]) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = try CLI.run(command + [""], in: dir)
        #expect(result.status == 66, "\(command): \(result.status) \(result.stdout)\(result.stderr)")
    }
}
