import Foundation
import Testing

/// `aside` on Firefox desktop profiles, and the commands that change a profile refusing one that
/// Firefox is running with (its record lock on `.parentlock`, or an old `lock` link naming a live
/// process), as a user meets them.
@Suite struct FirefoxDesktopAsideTests {
    static func files(_ profile: String) -> [String: Data] {
        var found: [String: Data] = [:]
        for name in [
            "sessionstore.jsonlz4", "sessionstore-backups/recovery.jsonlz4", "sessionstore-backups/recovery.baklz4",
            "sessionstore-backups/previous.jsonlz4"
        ] {
            if let data = FileManager.default.contents(atPath: "\(profile)/\(name)") { found[name] = data }
        }
        return found
    }

    /// push sets every session file aside in one entry and Firefox starts afresh; restore puts
    /// each back as it was, and the profile validates as before.
    @Test func pushAndRestoreTheWholeSession() throws {
        let profile = try FirefoxDesktopCommandTests.copy("session-file-skipped")
        defer { try? FileManager.default.removeItem(atPath: profile + "/..") }
        let before = Self.files(profile)
        #expect(before.count == 2, "\(before.keys)")
        let push = try CLI.run(["aside", "push", profile, "--format", "json"])
        #expect(push.status == 0, "\(push.stdout)\(push.stderr)")
        let document = try FirefoxDesktopCommandTests.json(push.stdout)
        #expect(document["browser"] as? String == "firefox-desktop", "\(document)")
        let entries = try #require(document["entries"] as? [[String: Any]])
        let name = try #require(entries.first?["entry"] as? String)
        #expect(entries.count == 1 && name.hasPrefix("sessionstore@"), "\(entries)")
        #expect(entries.first?["files"] as? Int == 2, "\(entries)")
        #expect(Self.files(profile).isEmpty)
        let list = try CLI.run(["aside", "list", profile])
        #expect(list.stdout.contains(name), "\(list.stdout)")
        let again = try CLI.run(["aside", "push", profile])
        #expect(again.status == 0 && again.stdout.contains("no live sessions"), "\(again.stdout)\(again.stderr)")
        let restore = try CLI.run(["aside", "restore", profile, name])
        #expect(restore.status == 0, "\(restore.stdout)\(restore.stderr)")
        #expect(Self.files(profile) == before)
        let validate = try CLI.run(["validate", profile, "--format", "json"])
        #expect(validate.status == 1 && validate.stdout.contains("session-file-skipped"), "\(validate.stdout)")
        #expect(try CLI.run(["aside", "list", profile]).stdout.contains(name) == false)
    }

    /// Windows share the session files, so a push names the whole session or nothing.
    @Test func aWindowAloneIsNoEntry() throws {
        let profile = try FirefoxDesktopCommandTests.copy("healthy")
        defer { try? FileManager.default.removeItem(atPath: profile + "/..") }
        let result = try CLI.run(["aside", "push", profile, "--session", "sessionstore.jsonlz4#1"])
        #expect(result.status == 66, "\(result.stdout)\(result.stderr)")
        #expect(Self.files(profile).count == 1)
        #expect(try CLI.run(["aside", "push", profile, "--session", "sessionstore", "--incognito"]).stdout.contains("no live sessions"))
        #expect(Self.files(profile).count == 1)
    }

    /// While a process holds the record lock on `.parentlock`, as a running Firefox does, repair
    /// and aside change nothing (75); read-only commands and the dry run's reading still work
    /// the same way once it is released.
    @Test func aRunningFirefoxKeepsItsProfile() throws {
        let profile = try FirefoxDesktopCommandTests.copy("session-file-skipped")
        defer { try? FileManager.default.removeItem(atPath: profile + "/..") }
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        holder.arguments = [
            "python3", "-c",
            "import fcntl,sys,time\nf=open(sys.argv[1],'w')\nfcntl.lockf(f,fcntl.LOCK_EX)\nprint('locked',flush=True)\nsys.stdin.read()",
            profile + "/.parentlock"
        ]
        let out = Pipe()
        let input = Pipe()
        holder.standardOutput = out
        holder.standardInput = input
        try holder.run()
        let ready = String(decoding: out.fileHandleForReading.availableData, as: UTF8.self)
        #expect(ready.contains("locked"))
        let before = Self.files(profile)
        for arguments in [["repair", profile], ["repair", profile, "--dry-run"], ["aside", "push", profile]] {
            let result = try CLI.run(arguments)
            #expect(result.status == 75, "\(arguments): \(result.stdout)\(result.stderr)")
            #expect(
                result.stderr.contains(
                    "Firefox desktop is running with this profile (.parentlock is held by process \(holder.processIdentifier))"),
                "\(result.stderr)")
        }
        #expect(Self.files(profile) == before)
        #expect(try CLI.run(["validate", profile]).status == 1)
        #expect(try CLI.run(["aside", "list", profile]).status == 0)
        try input.fileHandleForWriting.close()
        holder.waitUntilExit()
        // Released (Firefox quit or crashed: the kernel drops the lock), the profile is the user's again.
        let repair = try CLI.run(["repair", profile])
        #expect(repair.status == 0, "\(repair.stdout)\(repair.stderr)")
    }

    /// A `lock` link outlives a crash: one of the record-lock kind (`+`) says nothing alone, and
    /// an old one naming a process that is gone is stale; one naming a live process is held.
    @Test(arguments: [("127.0.0.1:+\(getpid())", false), ("127.0.0.1:\(Int32.max - 7)", false), ("127.0.0.1:\(getpid())", true)])
    func theLockLinkIsReadAsFirefoxReadsIt(target: String, held: Bool) throws {
        let profile = try FirefoxDesktopCommandTests.copy("healthy")
        defer { try? FileManager.default.removeItem(atPath: profile + "/..") }
        try FileManager.default.createSymbolicLink(atPath: profile + "/lock", withDestinationPath: target)
        let result = try CLI.run(["aside", "push", profile])
        #expect(result.status == (held ? 75 : 0), "\(target): \(result.stdout)\(result.stderr)")
        #expect(Self.files(profile).isEmpty == !held)
    }
}
