import Foundation
import Testing

/// `sessionctl aside push|list|restore|drop` as a user runs them, on copies of the healthy fixture.
@Suite struct AsideCommandTests {
    static let regular = "7A3F0C2E-1B4D-4E8F-9A6B-5C2D1E0F3A4B"

    /// A copy of the healthy fixture profile in a new temporary directory.
    static func copyOfHealthy() throws -> (directory: String, profile: String) {
        let directory = try CLI.temporaryDirectory("sessionctl-aside")
        try FileManager.default.copyItem(atPath: CLI.path("Fixtures/profiles/healthy"), toPath: "\(directory)/profile")
        return (directory, "\(directory)/profile")
    }

    /// Every file under `root` with its bytes, the lock file left out.
    static func files(_ root: String) -> [String: Data] {
        var result: [String: Data] = [:]
        for case let path as String in FileManager.default.enumerator(atPath: root)?.allObjects ?? [] {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: "\(root)/\(path)", isDirectory: &isDirectory), !isDirectory.boolValue,
                !path.hasSuffix(".sessionctl.lock")
            else { continue }
            result[path] = FileManager.default.contents(atPath: "\(root)/\(path)")
        }
        return result
    }

    static func entries(_ profile: String) throws -> [[String: Any]] {
        let result = try CLI.run(["aside", "list", profile, "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(document["schema"] as? String == "sessionctl.aside/1")
        #expect(document["browser"] as? String == "chrome-ios")
        return try #require(document["entries"] as? [[String: Any]])
    }

    @Test func pushListRestoreDropRoundTripByteIdentical() throws {
        let (directory, profile) = try Self.copyOfHealthy()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let original = Self.files(profile)
        #expect(try CLI.run(["aside", "push", profile, "--reason", "before repair"]).status == 0)
        #expect(try CLI.run(["aside", "push", profile, "--incognito"]).status == 0)
        #expect(try CLI.run(["inspect", profile]).stdout.hasPrefix("no sessions"))
        let entries = try Self.entries(profile)
        #expect(entries.count == 4)
        #expect(entries.map { $0["incognito"] as? Bool } == [false, false, false, true])
        #expect(entries.allSatisfy { $0["origin"] as? String == "sessionctl" })
        #expect(entries.first?["reason"] as? String == "before repair")
        let first = try #require(entries.first)
        #expect((first["path"] as? String)?.hasPrefix("Backups/\(Self.regular)/") == true)
        #expect(first["files"] as? Int == 7)
        for entry in entries {
            let name = try #require(entry["entry"] as? String)
            let result = try CLI.run(["aside", "restore", profile, name])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("restored \(name) to "))
        }
        #expect(try Self.entries(profile).isEmpty)
        #expect(Self.files(profile) == original)

        // Set aside one session again, then drop it.
        let pushed = try CLI.run(["aside", "push", "\(profile)/SessionStorage/\(Self.regular)", "--format", "json"])
        #expect(pushed.status == 0, "\(pushed.stderr)")
        let name = try #require(try Self.entries(profile).first?["entry"] as? String)
        #expect(pushed.stdout.contains(name))
        let dropped = try CLI.run(["aside", "drop", profile, name])
        #expect(dropped.status == 0 && dropped.stdout.hasPrefix("dropped \(name) (7 files, "))
        #expect(try Self.entries(profile).isEmpty)
        #expect(Self.files(profile) == original.filter { !$0.key.hasPrefix("SessionStorage/\(Self.regular)/") })
    }

    @Test func restoreOverALiveSessionNeedsForce() throws {
        let (directory, profile) = try Self.copyOfHealthy()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try CLI.run(["aside", "push", profile, "--session", Self.regular]).status == 0)
        let name = try #require(try Self.entries(profile).first?["entry"] as? String)
        try FileManager.default.copyItem(
            atPath: "\(profile)/SessionStorage/E9D8C7B6-A5F4-4321-8765-0FEDCBA98765",
            toPath: "\(profile)/SessionStorage/\(Self.regular)")
        let refused = try CLI.run(["aside", "restore", profile, name])
        #expect(refused.status == 73)
        #expect(refused.stderr.hasPrefix("sessionctl: ") && refused.stderr.contains("--force"))
        let forced = try CLI.run(["aside", "restore", profile, name, "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(forced.stdout.hasPrefix("set aside the live session first as \(Self.regular)@"))
        let left = try Self.entries(profile)
        #expect(left.count == 1 && left.first?["files"] as? Int == 2)
    }

    @Test func chromesBackupIsListed() throws {
        let (directory, profile) = try Self.copyOfHealthy()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: "\(profile)/Backups/OLD", withIntermediateDirectories: true)
        try Data("bplist00".utf8).write(to: URL(fileURLWithPath: "\(profile)/Backups/OLD/session.backup.plist"))
        let entries = try Self.entries(profile)
        #expect(entries.count == 1)
        #expect(entries.first?["entry"] as? String == "OLD@chrome")
        #expect(entries.first?["origin"] as? String == "chrome")
        #expect(entries.first?["time"] is NSNull)
        #expect(entries.first?["path"] as? String == "Backups/OLD/session.backup.plist")
        let text = try CLI.run(["aside", "list", profile])
        #expect(text.stdout.hasPrefix("OLD@chrome\n    set aside by chrome: "))
    }

    @Test func errorsUseContractStatuses() throws {
        let (directory, profile) = try Self.copyOfHealthy()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try CLI.run(["aside", "list", "\(directory)/nothing"]).status == 66)
        #expect(try CLI.run(["aside", "list", CLI.path("Fixtures")]).status == 65)
        #expect(try CLI.run(["aside", "push", profile, "--session", "NOPE"]).status == 66)
        #expect(try CLI.run(["aside", "restore", profile, "\(Self.regular)@20261121T183426.123456Z"]).status == 66)
        #expect(try CLI.run(["aside", "drop", profile, "../../x@chrome"]).status == 64)
        #expect(try CLI.run(["aside", "restore", profile]).status == 64)
        #expect(try CLI.run(["aside"]).status == 0)
    }

    @Test func aHeldLockIsStatus75AndChangesNothing() throws {
        let (directory, profile) = try Self.copyOfHealthy()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let before = Self.files(profile)
        // flock(1) holds the lock while it runs sessionctl, as another sessionctl would.
        let held = try CLI.runProgram("/usr/bin/flock", [profile, CLI.binary, "aside", "push", profile])
        #expect(held.status == 75, "\(held.stdout)\(held.stderr)")
        #expect(held.stderr.hasPrefix("sessionctl: ") && held.stderr.split(separator: "\n").count == 1)
        #expect(Self.files(profile) == before)
        // Listing only reads, so it does not need the lock.
        let listing = try CLI.runProgram("/usr/bin/flock", [profile, CLI.binary, "aside", "list", profile])
        #expect(listing.status == 0)
        // Every writer takes the lock before it reads what it will change: import and migrate too.
        for arguments in [
            ["import", CLI.path("Fixtures/profiles/healthy.json"), "--out", profile, "--replace"],
            ["migrate", profile, "--to", "legacy"], ["repair", profile]
        ] {
            let writer = try CLI.runProgram("/usr/bin/flock", [profile, CLI.binary] + arguments)
            #expect(writer.status == 75, "\(arguments): \(writer.stdout)\(writer.stderr)")
        }
        #expect(Self.files(profile) == before, "and nothing is left in the profile for the lock")
    }
}
