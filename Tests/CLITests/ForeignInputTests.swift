import Foundation
import Testing

/// Session files and profiles of other browsers are named for what they are (65, one line),
/// never called damaged or read as an empty Chrome for iOS profile.
@Suite struct ForeignInputTests {
    /// Writes `files` (relative path to bytes) under a new directory; returns it.
    private func tree(_ files: [String: [UInt8]]) throws -> String {
        let root = try CLI.temporaryDirectory()
        for (path, bytes) in files {
            let url = URL(fileURLWithPath: "\(root)/\(path)")
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
        }
        return root
    }

    static let snss: [UInt8] = Array("SNSS".utf8) + [3, 0, 0, 0, 8, 0, 1, 2, 3, 4, 5, 6, 7, 8]
    static let encryptedSNSS: [UInt8] = Array("SNSS".utf8) + [2, 0, 0, 0]

    /// A Chromium desktop file whose records cannot be read is named for what it is (65).
    @Test func anEncryptedChromiumFileIsNamed() throws {
        let path = "Default/Sessions/Tabs_13345678901234567"
        let root = try tree([path: Self.encryptedSNSS])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let result = try CLI.run(["inspect", "\(root)/\(path)"])
        #expect(result.status == 65, "\(result.status) \(result.stderr)")
        #expect(result.stderr.contains("SNSS version 2 is encrypted"), "\(result.stderr)")
        #expect(!result.stderr.contains("damaged"))
    }

    /// Read as Chrome for iOS, a Chromium desktop file is named for what it is and which
    /// --browser reads it.
    @Test func aChromiumFileReadAsChromeForIOSIsNamed() throws {
        let path = "Default/Sessions/Session_13345678901234567"
        let root = try tree([path: Self.snss])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let result = try CLI.run(["inspect", "--browser", "chrome-ios", "\(root)/\(path)"])
        #expect(result.status == 65, "\(result.status) \(result.stderr)")
        #expect(result.stderr.contains("Chromium desktop session file (SNSS version 3)"), "\(result.stderr)")
        #expect(result.stderr.contains("--browser chromium-desktop"), "\(result.stderr)")
        let read = try CLI.run(["inspect", "--format", "json", "\(root)/Default"])
        #expect(read.status == 0 && read.stdout.contains("\"browser\": \"chromium-desktop\""), "\(read.stdout)\(read.stderr)")
    }

    @Test func aPropertyListThatIsNotChromesIsNamed() throws {
        let plist = try PropertyListSerialization.data(fromPropertyList: ["name": "not a session"], format: .binary, options: 0)
        let root = try tree(["other.plist": [UInt8](plist)])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let result = try CLI.run(["inspect", "\(root)/other.plist"])
        #expect(result.status == 65 && result.stderr.contains("a property list that is not a Chrome for iOS session"), "\(result.stderr)")
    }

    /// A Tabs_ file beside Chrome for iOS's own sessions, as real iOS profiles have, changes nothing.
    @Test func aTabsFileBesideChromeForIOSSessionsIsIgnored() throws {
        let profile = try RepairCommandTests.copy("Fixtures/profiles/healthy")
        defer { try? FileManager.default.removeItem(atPath: parentDirectory(profile)) }
        try FileManager.default.createDirectory(atPath: "\(profile)/Sessions", withIntermediateDirectories: true)
        try Data(Self.snss).write(to: URL(fileURLWithPath: "\(profile)/Sessions/Tabs_13345678901234567"))
        let result = try CLI.run(["validate", profile])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }
}
