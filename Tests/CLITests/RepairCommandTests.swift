import Foundation
import Testing

/// `sessionctl repair` as a user runs it: exit statuses, the plan and what was done, the JSON
/// contract, dry runs, and a second run that changes nothing.
@Suite struct RepairCommandTests {
    static let session = "6A1E4C2B-9D0F-4B7A-8E3C-2F5D7B9A1C0E"

    /// A scratch copy of a directory of the repository.
    static func copy(_ relative: String) throws -> String {
        let target = try CLI.temporaryDirectory("repair") + "/profile"
        try FileManager.default.copyItem(atPath: CLI.path(relative), toPath: target)
        return target
    }

    /// Every file under `root` with its bytes (the lock file left out).
    static func files(_ root: String) -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let path = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory), !isDirectory.boolValue,
                !path.hasSuffix(".sessionctl.lock")
            else { continue }
            files[path] = FileManager.default.contents(atPath: root + "/" + path)
        }
        return files
    }

    static func json(_ result: CLIResult) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    @Test func repairsADamagedProfileThenChangesNothing() throws {
        let profile = try Self.copy("Fixtures/gallery/tab-id-duplicate")
        defer { try? FileManager.default.removeItem(atPath: parentDirectory(profile)) }
        let first = try CLI.run(["repair", profile])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("[tab-id-duplicate] give tab 3 (#6) the new id 12"))
        #expect(first.stdout.contains("set aside SessionStorage/\(Self.session)/ as \(Self.session)@"))
        #expect(first.stdout.contains("wrote SessionStorage/\(Self.session)/session_metadata.pb"))
        #expect(first.stdout.hasSuffix("result: the profile validates clean\n"))
        #expect(try CLI.run(["validate", "--strict", profile]).status == 0)
        let settled = Self.files(profile)
        let second = try CLI.run(["repair", profile])
        #expect(second.status == 0 && second.stdout.hasPrefix("plan: nothing to change"))
        #expect(Self.files(profile) == settled)
        let list = try CLI.run(["aside", "list", profile])
        #expect(list.status == 0 && list.stdout.contains("sessionctl repair, before fixing: tab-id-duplicate, unreferenced-entry"))
    }

    /// The dry run ends as the run does: errors the plan repairs are not said to be left.
    @Test(arguments: ["Fixtures/gallery/tab-no-history", "Fixtures/gallery/metadata-truncated", "Fixtures/gallery/legacy-truncated"])
    func aDryRunSaysWhatTheRunLeaves(_ fixture: String) throws {
        let profile = try Self.copy(fixture)
        defer { try? FileManager.default.removeItem(atPath: parentDirectory(profile)) }
        #expect(try CLI.run(["validate", profile]).status != 0)
        let dry = try CLI.run(["repair", "--dry-run", profile])
        #expect(dry.status == 0 && dry.stdout.hasSuffix("result: the plan repairs everything that needs it\n"), "\(dry.stdout)")
        let run = try CLI.run(["repair", profile])
        #expect(run.status == 0 && run.stdout.hasSuffix("result: the profile validates clean\n"), "\(run.stdout)")
    }

    @Test func aLegacySessionIsWrittenAnewAsChromeLoadsIt() throws {
        let profile = try Self.copy("Fixtures/gallery/legacy-tab-id-duplicate")
        defer { try? FileManager.default.removeItem(atPath: parentDirectory(profile)) }
        let plist = "Sessions/\(Self.session)/session.plist"
        let original = try #require(Self.files(profile)[plist])
        let tabsBefore = try Self.legacyTabs(profile)

        let first = try CLI.run(["repair", profile])
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        #expect(first.stdout.contains("set Sessions/\(Self.session)/ aside whole, then write \(plist) anew with 4 tabs"))
        #expect(first.stdout.contains("[tab-id-duplicate] give tab 3 the new id #"))
        #expect(first.stdout.contains("set aside Sessions/\(Self.session)/ as \(Self.session)@"))
        #expect(first.stdout.contains("wrote \(plist)"))
        #expect(try CLI.run(["validate", "--strict", profile]).status == 0)

        // The same tabs, ids made unique, each with its stable identifier; still a legacy session.
        let tabsAfter = try Self.legacyTabs(profile)
        #expect(tabsAfter.map(\.url) == tabsBefore.map(\.url))
        #expect(tabsAfter.map(\.stable) == tabsBefore.map(\.stable))
        #expect(Set(tabsAfter.map(\.id)).count == tabsAfter.count)
        // The original, byte for byte, in the set-aside entry.
        #expect(
            Self.files(profile).contains {
                $0.key.hasPrefix("Backups/\(Self.session)/") && $0.key.hasSuffix("/session.plist") && $0.value == original
            })

        let settled = Self.files(profile)
        let second = try CLI.run(["repair", profile])
        #expect(second.status == 0 && second.stdout.hasPrefix("plan: nothing to change"))
        #expect(Self.files(profile) == settled)
    }

    /// The tabs of the legacy session of a profile as inspect shows them.
    static func legacyTabs(_ profile: String) throws -> [(id: Int, url: String, stable: String)] {
        let document = try Self.json(try CLI.run(["inspect", profile, "--format", "json"]))
        let session = try #require((document["sessions"] as? [[String: Any]])?.first)
        #expect(session["format"] as? String == "legacy")
        return try #require(session["tabs"] as? [[String: Any]]).map { tab in
            (tab["id"] as? Int ?? 0, tab["url"] as? String ?? "", tab["stableIdentifier"] as? String ?? "")
        }
    }

    @Test func aDryRunTouchesNothing() throws {
        let profile = try Self.copy("Fixtures/gallery/metadata-truncated")
        defer { try? FileManager.default.removeItem(atPath: parentDirectory(profile)) }
        let before = Self.files(profile)
        let result = try CLI.run(["repair", "--dry-run", profile, "--format", "json"])
        #expect(result.status == 0)
        let document = try Self.json(result)
        #expect(document["dryRun"] as? Bool == true)
        #expect((document["done"] as? [Any])?.isEmpty == true)
        let plan = try #require(document["plan"] as? [[String: Any]])
        #expect(plan.first?["rule"] as? String == "metadata-unparsable")
        #expect(Self.files(profile) == before)
        #expect(!FileManager.default.fileExists(atPath: profile + "/.sessionctl.lock"))
    }

    @Test func jsonDocumentHasTheContractKeys() throws {
        let profile = try Self.copy("Fixtures/gallery/tab-data-truncated")
        defer { try? FileManager.default.removeItem(atPath: parentDirectory(profile)) }
        let result = try CLI.run(["repair", profile, "--format", "json"])
        #expect(result.status == 0)
        let document = try Self.json(result)
        #expect(
            Set(document.keys) == [
                "schema", "browser", "product", "productEvidence", "dryRun", "plan", "effects", "done", "unrepaired", "result"
            ])
        #expect(document["schema"] as? String == "sessionctl.repair/1")
        for step in try #require(document["plan"] as? [[String: Any]]) {
            #expect(Set(step.keys) == ["rule", "session", "incognito", "file", "action", "reason"])
        }
        let done = try #require(document["done"] as? [[String: Any]])
        #expect(done.first?["operation"] as? String == "set-aside")
        #expect(done.last?["path"] as? String == "SessionStorage/\(Self.session)/session_metadata.pb")
        let outcome = try #require(document["result"] as? [String: Any])
        #expect(outcome["clean"] as? Bool == true && outcome["errors"] as? Int == 0)
    }

    @Test func whatCannotBeRepairedIsSaidPlainlyWithStatusOne() throws {
        let profile = try Self.copy("Fixtures/gallery/internal-url-sessionrestore")
        defer { try? FileManager.default.removeItem(atPath: parentDirectory(profile)) }
        // A wrapper that names no real page: nothing to unwrap it to.
        var patched = 0
        for (path, data) in Self.files(profile) where path.hasSuffix("data.pb") {
            let text = [UInt8](data)
            let needle = Array("sessionrestore?url=".utf8)
            guard
                let at = (0...(max(text.count - needle.count, 0))).first(where: {
                    Array(text[$0..<min($0 + needle.count, text.count)]) == needle
                })
            else { continue }
            var bytes = text
            bytes.replaceSubrange(at..<at + needle.count, with: Array("sessionrestore?uri=".utf8))
            try Data(bytes).write(to: URL(fileURLWithPath: profile + "/" + path))
            patched += 1
        }
        #expect(patched == 1)
        let result = try CLI.run(["repair", profile])
        #expect(result.status == 1)
        #expect(result.stdout.contains("1 problem could not be repaired:"))
        #expect(result.stdout.contains("internal-url"))
        #expect(try CLI.run(["repair", profile]).status == 1)
    }

    @Test func inputsThatAreNotProfiles() throws {
        let missing = try CLI.run(["repair", CLI.path("Fixtures/no-such-profile")])
        #expect(missing.status == 66 && missing.stderr.hasPrefix("sessionctl: "))
        let file = try CLI.run(["repair", CLI.path("Fixtures/profiles/healthy.json")])
        #expect(file.status == 65 && file.stderr.split(separator: "\n").count == 1)
        #expect(try CLI.run(["repair", CLI.path("Fixtures/profiles/healthy"), "--format", "xml"]).status == 64)
        #expect(try CLI.run(["repair", "--dry-run", CLI.path("Fixtures/profiles/healthy")]).status == 0)
    }

    @Test func oneSessionDirectoryLimitsTheRepairToIt() throws {
        let profile = try Self.copy("Fixtures/gallery/incognito-tab-data-truncated")
        defer { try? FileManager.default.removeItem(atPath: parentDirectory(profile)) }
        let regular = try CLI.run(["repair", profile + "/SessionStorage/" + Self.session])
        #expect(regular.status == 0 && regular.stdout.hasPrefix("plan: nothing to change"))
        #expect(try CLI.run(["validate", profile]).status == 1)
        let incognito = try CLI.run(["repair", profile + "/OTR/SessionStorage/" + Self.session])
        #expect(incognito.status == 0 && incognito.stdout.contains("[tab-data-unparsable]"))
        #expect(try CLI.run(["validate", profile]).status == 0)
        #expect(FileManager.default.fileExists(atPath: profile + "/OTR/Backups/" + Self.session))
    }
}

/// The directory holding `path`.
func parentDirectory(_ path: String) -> String {
    URL(fileURLWithPath: path).deletingLastPathComponent().path
}
