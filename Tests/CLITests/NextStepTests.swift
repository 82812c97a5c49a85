import Foundation
import Testing

/// What a person needs next: hints on findings and refusals, and shell completions that know
/// paths and every enumerated value.
@Suite struct NextStepTests {
    @Test func validateSaysWhatToRunNextAndCountsInfo() throws {
        let result = try CLI.run(["validate", CLI.path("Fixtures/gallery/tab-id-duplicate")])
        #expect(result.status == 1)
        #expect(result.stdout.contains("next: sessionctl repair --dry-run "))
        let clean = try CLI.run(["validate", CLI.path("Fixtures/gallery/healthy")])
        #expect(!clean.stdout.contains("next:"))
        let json = try CLI.run(["validate", CLI.path("Fixtures/gallery/stray-file"), "--format", "json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect((document["summary"] as? [String: Any])?["info"] as? Int == 1)
    }

    /// The ticket worked from the bundle to a repaired profile: every step shows what it can read
    /// and names the next command, and the unpacked bundle is taken as the profile it holds.
    /// The `next:` line of validate runs as printed, whatever PATH named: a profile, its storage
    /// directory, a session directory or its list file (repair takes the profile holding a storage
    /// directory or a file).
    @Test(arguments: [
        "", "/SessionStorage", "/SessionStorage/6A1E4C2B-9D0F-4B7A-8E3C-2F5D7B9A1C0E",
        "/SessionStorage/6A1E4C2B-9D0F-4B7A-8E3C-2F5D7B9A1C0E/session_metadata.pb"
    ])
    func theNextCommandRunsAsPrinted(suffix: String) throws {
        let path = CLI.path("Fixtures/gallery/tab-id-duplicate") + suffix
        let result = try CLI.run(["validate", path])
        let line = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("next: sessionctl repair --dry-run ") })
        let rest = line.dropFirst("next: sessionctl repair --dry-run ".count)
        let target = String(try #require(rest.components(separatedBy: " shows how").first))
        let dry = try CLI.run(["repair", "--dry-run", target])
        #expect([0, 1].contains(dry.status), "\(suffix): repair --dry-run \(target): \(dry.status) \(dry.stderr)")
    }

    @Test func theTicketFromTheBundleToARepairedProfile() throws {
        let scratch = try CLI.temporaryDirectory("ticket")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try FileManager.default.createDirectory(atPath: scratch + "/user", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: CLI.path("Fixtures/profiles/healthy"), toPath: scratch + "/user/Profile")
        let metadata = scratch + "/user/Profile/SessionStorage/E9D8C7B6-A5F4-4321-8765-0FEDCBA98765/session_metadata.pb"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: metadata))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: metadata))
        let bundle = scratch + "/ticket.tar.gz"
        #expect(try CLI.runProgram("/usr/bin/env", ["tar", "-czf", bundle, "-C", scratch + "/user", "Profile"]).status == 0)

        let inspect = try CLI.run(["inspect", bundle])
        #expect(inspect.status == 1 && inspect.stdout.contains("not readable") && inspect.stdout.contains("next: "))
        let validate = try CLI.run(["validate", bundle])
        #expect(validate.status == 1)
        #expect(
            validate.stdout.contains("next: sessionctl decompress \(bundle) -o DIR, then sessionctl repair --dry-run DIR"),
            "\(validate.stdout)")
        #expect(try CLI.run(["decompress", bundle, "-o", scratch + "/out"]).status == 0)
        let repair = try CLI.run(["repair", scratch + "/out"])
        #expect(repair.status == 0, "\(repair.stderr)")
        #expect(repair.stderr.contains("note: reading the profile Profile inside \(scratch)/out"))
        #expect(repair.stdout.contains("result: the profile validates clean"))
        #expect(try CLI.run(["validate", scratch + "/out"]).status == 0)
    }

    @Test func writersOnABundleSuggestDecompress() throws {
        let scratch = try CLI.temporaryDirectory("bundle")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let bundle = scratch + "/ticket.tar.gz"
        #expect(try CLI.run(["compress", CLI.path("Fixtures/profiles/healthy"), "-o", bundle]).status == 0)
        for command in [["repair", bundle], ["migrate", bundle, "--to", "legacy"], ["aside", "push", bundle]] {
            let result = try CLI.run(command)
            #expect(result.status == 65)
            #expect(result.stderr.contains("sessionctl decompress"), "\(command): \(result.stderr)")
        }
        let again = try CLI.run(["compress", CLI.path("Fixtures/profiles/healthy"), "-o", bundle])
        #expect(again.status == 73 && again.stderr.contains("already exists; name another file with -o"))
    }

    @Test func asidePushSaysWhatItLeftInPlace() throws {
        let scratch = try CLI.temporaryDirectory("push")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let profile = scratch + "/p"
        try FileManager.default.copyItem(atPath: CLI.path("Fixtures/profiles/healthy"), toPath: profile)
        let result = try CLI.run(["aside", "push", profile])
        #expect(result.status == 0)
        #expect(result.stderr.contains("live incognito session left in place") && result.stderr.contains("--incognito"))
    }

    @Test func completionsKnowPathsAndValues() throws {
        let bash = try CLI.run(["--generate-completion-script", "bash"]).stdout
        for value in ["pessimistic", "process", "in-place", "foundation-atomic", "text'$'\\n''json"] {
            #expect(bash.contains(value), "bash completion lacks \(value)")
        }
        #expect(bash.contains("__sessionctl_add_completions -f"))
        let zsh = try CLI.run(["--generate-completion-script", "zsh"]).stdout
        #expect(zsh.contains(":path:_files") && zsh.contains("_files -/"))
        let fish = try CLI.run(["--generate-completion-script", "fish"]).stdout
        #expect(fish.contains("pessimistic") && fish.contains(" -F"))
    }

    /// A damaged window never hides the readable ones: they are listed, the damaged one is named
    /// with its error and the next command (JSON: errors), and the status is 1; 65 only when
    /// nothing can be read.
    @Test func inspectShowsWhatItCanReadBesideWhatItCannot() throws {
        let profile = CLI.path("Fixtures/gallery/metadata-truncated")
        let text = try CLI.run(["inspect", profile])
        #expect(text.status == 1, "\(text.stderr)")
        #expect(
            text.stdout.contains("incognito") && text.stdout.contains("not readable:") && text.stdout.contains("next: sessionctl validate"))
        let json = try CLI.run(["inspect", profile, "--format", "json"])
        #expect(json.status == 1)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect((document["sessions"] as? [Any])?.count == 1)
        let errors = try #require(document["errors"] as? [[String: Any]])
        #expect(errors.count == 1 && errors[0]["offset"] is Int && errors[0]["incognito"] as? Bool == false)
        let healthy = try CLI.run(["inspect", CLI.path("Fixtures/gallery/healthy"), "--format", "json"])
        #expect(healthy.status == 0 && !healthy.stdout.contains("\"errors\""))
        let nothing = try CLI.run(["inspect", CLI.path("Fixtures/gallery/legacy-truncated")])
        #expect(nothing.status == 65)
    }

    /// An unpacked bundle's directory holding one profile is read as that profile, saying so; a
    /// directory of unrelated subdirectories is no profile (65), for every reading command.
    @Test func theProfileInsideAnUnpackedBundleIsFound() throws {
        let scratch = try CLI.temporaryDirectory("ticket")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try FileManager.default.copyItem(atPath: CLI.path("Fixtures/profiles/healthy"), toPath: scratch + "/ticket/Profile")
        for command in [["validate", scratch + "/ticket"], ["inspect", scratch + "/ticket"]] {
            let result = try CLI.run(command)
            #expect(result.status == 0, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("note: reading the profile Profile inside"))
        }
        for name in ["etc/a", "etc/b", "etc/c"] {
            try FileManager.default.createDirectory(atPath: scratch + "/" + name, withIntermediateDirectories: true)
        }
        for command in ["validate", "inspect"] {
            let result = try CLI.run([command, scratch + "/etc"])
            #expect(result.status == 65 && result.stderr.contains("not a profile"), "\(command): \(result.stderr)")
        }
    }

    /// The plan says what happens to each window before it happens (JSON: effects).
    @Test func theRepairPlanListsWindowEffects() throws {
        let result = try CLI.run(["repair", "--dry-run", CLI.path("Fixtures/gallery/metadata-truncated"), "--format", "json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let effects = try #require(document["effects"] as? [[String: Any]])
        #expect(effects.filter { $0["what"] as? String == "tab-recovered" }.count == 3)
        #expect(effects.contains { $0["what"] as? String == "tabs" && $0["from"] as? String == "1" && $0["to"] as? String == "4" })
        let groups = try CLI.run(["repair", "--dry-run", CLI.path("Fixtures/gallery/group-range-past-end")])
        #expect(groups.stdout.contains("for the window:") && groups.stdout.contains("group-changed:"))
    }
}
