import Foundation
import Testing

/// What a writing command refuses leaves nothing behind and never acts outside the profile: a
/// refused repair leaves no intent record (so no later run puts an unrelated entry back), its dry
/// run ends with the same status, and a `Backups/<id>` that is a symbolic link is never written
/// through by repair, aside push or migrate.
@Suite struct RefusedWriteTests {
    static let session = "6A1E4C2B-9D0F-4B7A-8E3C-2F5D7B9A1C0E"

    /// The tab-id-duplicate gallery profile, with an older, unrelated entry of its session set
    /// aside and the session live again, holding a FIFO that repair must refuse.
    private func profileWithOlderEntryAndFIFO() throws -> String {
        let profile = try RepairCommandTests.copy("Fixtures/gallery/tab-id-duplicate")
        let live = "\(profile)/SessionStorage/\(Self.session)"
        let kept = profile + "-kept"
        try FileManager.default.copyItem(atPath: live, toPath: kept)
        let push = try CLI.run(["aside", "push", profile, "--session", Self.session, "--reason", "older"])
        #expect(push.status == 0, "\(push.stderr)")
        try FileManager.default.moveItem(atPath: kept, toPath: live)
        #expect(mkfifo("\(live)/fifo", 0o600) == 0)
        return profile
    }

    @Test func aRefusedRepairLeavesNoIntentAndNothingIsPutBackLater() throws {
        let profile = try profileWithOlderEntryAndFIFO()
        defer { try? FileManager.default.removeItem(atPath: parentDirectory(profile)) }
        let refused = try CLI.run(["repair", profile], timeout: 60)
        #expect(refused.status == 65, "\(refused.stdout)\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(profile)/.sessionctl-intent.json"), "a refused repair leaves no intent record")
        // The window is then deleted (by Chrome, or by hand): the older entry stays set aside.
        try FileManager.default.removeItem(atPath: "\(profile)/SessionStorage/\(Self.session)")
        let before = try CLI.run(["aside", "list", profile, "--format", "json"]).stdout
        let next = try CLI.run(["repair", profile], timeout: 60)
        #expect(next.status == 0, "\(next.stdout)\(next.stderr)")
        #expect(!next.stdout.contains("restored"), "\(next.stdout)")
        #expect(try CLI.run(["aside", "list", profile, "--format", "json"]).stdout == before)
        #expect(!FileManager.default.fileExists(atPath: "\(profile)/SessionStorage/\(Self.session)"))
    }

    @Test func aStaleIntentPutsBackOnlyTheEntryItRecorded() throws {
        let profile = try profileWithOlderEntryAndFIFO()
        defer { try? FileManager.default.removeItem(atPath: parentDirectory(profile)) }
        try FileManager.default.removeItem(atPath: "\(profile)/SessionStorage/\(Self.session)")
        // A record as a crashed repair leaves it, naming content no entry holds.
        let record = """
            {"schema":"sessionctl.intent/1","operation":"repair","directories":["SessionStorage/\(Self.session)"],\
            "contents":{"SessionStorage/\(Self.session)":"\(String(repeating: "0", count: 64))"}}
            """
        try Data(record.utf8).write(to: URL(fileURLWithPath: "\(profile)/.sessionctl-intent.json"))
        let run = try CLI.run(["repair", profile], timeout: 60)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("not restored"), "\(run.stdout)")
        #expect(!FileManager.default.fileExists(atPath: "\(profile)/SessionStorage/\(Self.session)"))
        #expect(try CLI.run(["aside", "list", profile]).stdout.contains("older"))
        #expect(!FileManager.default.fileExists(atPath: "\(profile)/.sessionctl-intent.json"))
    }

    @Test func aDryRunEndsWithTheStatusOfTheRefusedRun() throws {
        let profile = try profileWithOlderEntryAndFIFO()
        defer { try? FileManager.default.removeItem(atPath: parentDirectory(profile)) }
        let dry = try CLI.run(["repair", "--dry-run", profile], timeout: 60)
        let run = try CLI.run(["repair", profile], timeout: 60)
        #expect(run.status == 65)
        #expect(dry.status == run.status, "dry run: \(dry.status) \(dry.stderr)")
        #expect(dry.stderr == run.stderr)
    }

    /// `Backups/<id>` is a symbolic link to a directory outside the profile.
    private func profileWithLinkedBackups() throws -> (profile: String, outside: String) {
        let profile = try RepairCommandTests.copy("Fixtures/gallery/tab-id-duplicate")
        let outside = parentDirectory(profile) + "/outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: "\(profile)/Backups", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: "\(profile)/Backups/\(Self.session)", withDestinationPath: outside)
        return (profile, outside)
    }

    @Test(arguments: [["repair"], ["aside", "push"], ["migrate", "--to", "legacy"]])
    func aLinkedBackupsDirectoryIsNeverWrittenThrough(command: [String]) throws {
        let (profile, outside) = try profileWithLinkedBackups()
        defer { try? FileManager.default.removeItem(atPath: parentDirectory(profile)) }
        let before = RepairCommandTests.files(profile)
        var arguments = command
        arguments.insert(profile, at: command[0] == "aside" ? 2 : 1)
        let result = try CLI.run(arguments, timeout: 60)
        #expect(result.status == 65, "\(command): \(result.status) \(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("symbolic link"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside).isEmpty, "\(command) wrote outside the profile")
        #expect(RepairCommandTests.files(profile) == before, "\(command) changed the profile")
    }
}

/// A session directory named with a doubled slash or a `.` component is the same directory.
@Suite struct SessionPathSpellingTests {
    @Test(arguments: ["SessionStorage//6A1E4C2B-9D0F-4B7A-8E3C-2F5D7B9A1C0E", "./SessionStorage/./6A1E4C2B-9D0F-4B7A-8E3C-2F5D7B9A1C0E/"])
    func aSessionDirectorySpelledWithExtraSlashesIsTheSession(spelling: String) throws {
        let profile = try RepairCommandTests.copy("Fixtures/gallery/tab-id-duplicate")
        defer { try? FileManager.default.removeItem(atPath: parentDirectory(profile)) }
        let result = try CLI.run(["repair", "--dry-run", "\(profile)/\(spelling)"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("session 6A1E4C2B-9D0F-4B7A-8E3C-2F5D7B9A1C0E"), "\(result.stdout)")
    }
}

/// A file over the size limit in a window is refused for its size, not as unreadable.
@Suite struct OversizedFileRefusalTests {
    @Test(arguments: [["repair"], ["aside", "push"]])
    func aFileOverTheLimitIsRefusedForItsSize(command: [String]) throws {
        let profile = try RepairCommandTests.copy("Fixtures/gallery/tab-id-duplicate")
        defer { try? FileManager.default.removeItem(atPath: parentDirectory(profile)) }
        // Sparse: no gigabyte is written.
        let big = "\(profile)/SessionStorage/\(RefusedWriteTests.session)/big.bin"
        #expect(FileManager.default.createFile(atPath: big, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: big))
        try handle.truncate(atOffset: UInt64(1 << 30) + 1)
        try handle.close()
        let result = try CLI.run(command + [profile], timeout: 120)
        #expect(result.status == 65, "\(command): \(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("larger than any session file") && !result.stderr.contains("permissions"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(profile)/.sessionctl-intent.json"))
    }
}
