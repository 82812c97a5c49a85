import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `aside` on Chromium desktop profiles, and the commands that change a profile refusing one that
/// Chrome is running with (its `SingletonLock` link in the user-data directory naming this host
/// and a live process), as a user meets them.
@Suite struct ChromiumDesktopAsideTests {
    static func sessionFiles(_ profile: String) -> [String: Data] {
        var found: [String: Data] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: profile + "/Sessions")) ?? [] {
            found[name] = FileManager.default.contents(atPath: "\(profile)/Sessions/\(name)")
        }
        return found
    }

    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        gethostname(&buffer, 255)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// push sets every session file aside in one entry (Chrome then starts afresh); restore puts
    /// each back as it was.
    @Test func pushAndRestoreTheSessionFiles() throws {
        let profile = try ChromiumDesktopCommandTests.copy("healthy")
        defer { try? FileManager.default.removeItem(atPath: parentDirectory(profile)) }
        let before = Self.sessionFiles(profile)
        #expect(before.count == 2, "\(before.keys)")
        let push = try CLI.run(["aside", "push", profile, "--format", "json"])
        #expect(push.status == 0, "\(push.stdout)\(push.stderr)")
        let entries = try #require(try ChromiumDesktopCommandTests.json(push.stdout)["entries"] as? [[String: Any]])
        let name = try #require(entries.first?["entry"] as? String)
        #expect(entries.count == 1 && name.hasPrefix("Sessions@") && entries.first?["files"] as? Int == 2, "\(entries)")
        #expect(Self.sessionFiles(profile).isEmpty)
        let restore = try CLI.run(["aside", "restore", profile, name])
        #expect(restore.status == 0, "\(restore.stdout)\(restore.stderr)")
        #expect(Self.sessionFiles(profile) == before)
        #expect(try CLI.run(["validate", profile]).status == 0)
        #expect(try CLI.run(["aside", "push", profile, "--session", "Sessions/Session_13397000000000000#1"]).status == 66)
    }

    /// A SingletonLock naming this host and a live process: repair and aside change nothing
    /// (75); one naming a process that is gone, or another host, is stale.
    @Test(arguments: [("\(getpid())", true), ("\(Int32.max - 7)", false)])
    func aRunningChromeKeepsItsProfile(pid: String, held: Bool) throws {
        let profile = try ChromiumDesktopCommandTests.copy("record-size-zero")
        defer { try? FileManager.default.removeItem(atPath: parentDirectory(profile)) }
        try FileManager.default.createSymbolicLink(
            atPath: parentDirectory(profile) + "/SingletonLock", withDestinationPath: "\(Self.hostName())-\(pid)")
        let before = Self.sessionFiles(profile)
        let repair = try CLI.run(["repair", profile])
        #expect(repair.status == (held ? 75 : 0), "\(repair.stdout)\(repair.stderr)")
        if held {
            #expect(repair.stderr.contains("Chromium desktop is running with this profile (SingletonLock is held by process \(pid))"))
            #expect(Self.sessionFiles(profile) == before)
            #expect(try CLI.run(["aside", "push", profile]).status == 75)
            #expect(try CLI.run(["validate", profile]).status == 1)
        }
        // Another machine's lock (a copied profile) is not this machine's Chrome.
        let other = try ChromiumDesktopCommandTests.copy("record-size-zero")
        defer { try? FileManager.default.removeItem(atPath: parentDirectory(other)) }
        try FileManager.default.createSymbolicLink(
            atPath: parentDirectory(other) + "/SingletonLock", withDestinationPath: "elsewhere-\(getpid())")
        #expect(try CLI.run(["repair", other]).status == 0)
    }
}
