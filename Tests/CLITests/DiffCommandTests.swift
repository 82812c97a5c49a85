import Foundation
import Testing

/// `sessionctl diff` as a user runs it, on the healthy fixture and copies of it changed through `import`.
@Suite struct DiffCommandTests {
    static let healthy = CLI.path("Fixtures/profiles/healthy")
    static let regular = "7A3F0C2E-1B4D-4E8F-9A6B-5C2D1E0F3A4B"

    /// Writes the healthy fixture's document, changed by `edit`, as a profile under a new directory.
    static func changedProfile(_ edit: (inout [[String: Any]]) -> Void) throws -> (directory: String, profile: String) {
        let directory = try CLI.temporaryDirectory("sessionctl-diff")
        let source = try Data(contentsOf: URL(fileURLWithPath: CLI.path("Fixtures/profiles/healthy.json")))
        var document = try #require(try JSONSerialization.jsonObject(with: source) as? [String: Any])
        var sessions = try #require(document["sessions"] as? [[String: Any]])
        edit(&sessions)
        document["sessions"] = sessions
        let json = "\(directory)/changed.json"
        try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: json))
        let result = try CLI.run(["import", json, "--out", "\(directory)/profile"])
        #expect(result.status == 0, "\(result.stderr)")
        return (directory, "\(directory)/profile")
    }

    static func json(_ result: CLIResult) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    @Test func identicalInputsExitZero() throws {
        let text = try CLI.run(["diff", Self.healthy, Self.healthy])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.hasPrefix("no differences"))
        let history = try CLI.run(["diff", Self.healthy, Self.healthy, "--history", "--format", "json"])
        #expect(history.status == 0)
        let document = try Self.json(history)
        #expect(document["schema"] as? String == "sessionctl.diff/1")
        #expect(document["identical"] as? Bool == true)
        let statuses = (document["sessions"] as? [[String: Any]])?.compactMap { $0["status"] as? String }
        #expect(statuses == ["same", "same", "same", "same"])
        #expect(document["browsers"] as? [String: String] == ["a": "chrome-ios", "b": "chrome-ios"])
        let formats = (document["sessions"] as? [[String: Any]])?.compactMap { $0["formats"] as? [String: String] }
        #expect(formats?.count == 4 && formats?.allSatisfy { $0["a"] == $0["b"] && ["optimized", "legacy"].contains($0["a"]) } == true)
    }

    @Test func everyKindOfChange() throws {
        let (directory, profile) = try Self.changedProfile { sessions in
            var tabs = sessions[0]["tabs"] as? [[String: Any]] ?? []
            tabs[1]["title"] = "Calendar — Week 48"  // tab 4 changed
            let moved = tabs.remove(at: 4)  // tab 9 moved to the front
            tabs.insert(moved, at: 0)
            tabs.remove(at: 5)  // tab 10 removed
            var added = tabs[1]
            added["id"] = 77  // tab 77 added at the end (index 5)
            tabs.append(added)
            sessions[0]["tabs"] = tabs
            sessions[0]["groups"] = []  // no groups any more
            sessions.remove(at: 2)  // session E9D8... removed
            var incognito = sessions[2]
            incognito["tabs"] = Array((incognito["tabs"] as? [[String: Any]] ?? []).prefix(1))
            incognito["activeIndex"] = 0
            sessions[2] = incognito  // incognito tab 31 removed
        }
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try CLI.run(["diff", Self.healthy, profile, "--format", "json"])
        #expect(result.status == 1, "\(result.stderr)")
        let sessions = try #require(try Self.json(result)["sessions"] as? [[String: Any]])
        #expect(
            sessions.map { "\($0["id"] ?? "")/\($0["incognito"] ?? "")/\($0["status"] ?? "")" } == [
                "\(Self.regular)/0/changed", "\(Self.regular)-Inactive/0/same",
                "E9D8C7B6-A5F4-4321-8765-0FEDCBA98765/0/removed", "\(Self.regular)/1/changed"
            ])
        let tabs = try #require(sessions[0]["tabs"] as? [String: [[String: Any]]])
        #expect(tabs["added"]?.map { $0["id"] as? Int } == [77])
        #expect(tabs["removed"]?.map { $0["id"] as? Int } == [10])
        #expect(tabs["moved"]?.map { [$0["id"], $0["from"], $0["to"]].compactMap { $0 as? Int } } == [[9, 4, 0]])
        let changed = tabs["changed"]?.map { "\($0["id"] ?? ""):\(($0["fields"] as? [String] ?? []).joined(separator: ","))" }
        #expect(changed?.contains("4:title,pinned") == true)
        let groups = try #require(sessions[0]["groups"] as? [String: [[String: Any]]])
        #expect(groups["removed"]?.count == 2)
        let incognitoTabs = try #require(sessions[3]["tabs"] as? [String: [[String: Any]]])
        #expect(incognitoTabs["removed"]?.map { $0["id"] as? Int } == [31])
        #expect(sessions[3]["activeIndex"] as? [String: Int] == ["from": 1, "to": 0])

        let text = try CLI.run(["diff", Self.healthy, profile])
        #expect(text.status == 1)
        for line in [
            "  + [5] #77 ", "  - [5] #10 \"Cart (2)\"", "  > [4] -> [0] #9 ", "  ~ [2] #4 \"Calendar — Week 48\": title",
            "      title: \"Calendar — Week 47\" -> \"Calendar — Week 48\"",
            "session E9D8C7B6-A5F4-4321-8765-0FEDCBA98765: removed, 1 tab",
            "incognito session \(Self.regular): 2 tabs -> 1 tab, 1 removed"
        ] {
            #expect(text.stdout.contains(line), "missing \(line)")
        }
        #expect(!text.stdout.contains("\u{1B}["))
    }

    @Test func historyChangesNeedHistory() throws {
        let (directory, profile) = try Self.changedProfile { sessions in
            var tabs = sessions[0]["tabs"] as? [[String: Any]] ?? []
            var history = tabs[0]["history"] as? [String: Any] ?? [:]
            var items = history["items"] as? [[String: Any]] ?? []
            items[0]["title"] = "Rewritten"
            history["items"] = items
            tabs[0]["history"] = history
            sessions[0]["tabs"] = tabs
        }
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try CLI.run(["diff", Self.healthy, profile]).status == 0)
        let result = try CLI.run(["diff", Self.healthy, profile, "--history"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("~ [0] #3 \"Inbox\": history"))
        #expect(result.stdout.contains("1 rewritten"))
    }

    @Test func setAsideEntryAndSingleFilesAreInputs() throws {
        let directory = try CLI.temporaryDirectory("sessionctl-diff")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let live = "\(Self.healthy)/SessionStorage/\(Self.regular)"
        let entry = "\(directory)/profile/Backups/\(Self.regular)/20261121T183426.123456Z"
        try FileManager.default.createDirectory(atPath: "\(directory)/profile/Backups/\(Self.regular)", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: live, toPath: entry)
        let result = try CLI.run(["diff", entry, live, "--history", "--format", "json"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let sessions = try Self.json(result)["sessions"] as? [[String: Any]]
        #expect(sessions?.first?["id"] as? String == Self.regular)
        #expect(try CLI.run(["diff", "\(entry)/session_metadata.pb", "\(live)/session_metadata.pb"]).status == 0)
        // Two lone sessions are compared whatever their ids.
        let other = "\(Self.healthy)/SessionStorage/E9D8C7B6-A5F4-4321-8765-0FEDCBA98765"
        let lone = try CLI.run(["diff", live, other])
        #expect(lone.status == 1)
        #expect(lone.stdout.hasPrefix("session \(Self.regular) -> session E9D8C7B6-A5F4-4321-8765-0FEDCBA98765: 6 tabs -> 1 tab"))
    }

    @Test func errorsUseContractStatuses() throws {
        let directory = try CLI.temporaryDirectory("sessionctl-diff")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Data("not a session".utf8).write(to: URL(fileURLWithPath: "\(directory)/notes.txt"))
        let missing = try CLI.run(["diff", Self.healthy, "\(directory)/nothing"])
        #expect(missing.status == 66)
        #expect(missing.stderr.hasPrefix("sessionctl: ") && missing.stderr.split(separator: "\n").count == 1)
        #expect(try CLI.run(["diff", "\(directory)/notes.txt", Self.healthy]).status == 65)
        #expect(try CLI.run(["diff", Self.healthy]).status == 64)
        #expect(try CLI.run(["diff", Self.healthy, Self.healthy, "--format", "yaml"]).status == 64)
    }

    @Test func colourOnlyOnATerminalWithoutNoColor() throws {
        let (directory, profile) = try Self.changedProfile { sessions in sessions.removeLast() }
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let command = "'\(CLI.binary)' diff '\(Self.healthy)' '\(profile)'"
        // script(1) gives the command a terminal; its output comes back through our pipe.
        let terminal = try CLI.runProgram("/usr/bin/script", ["-qec", command, "/dev/null"], environment: ["NO_COLOR": ""])
        #expect(terminal.stdout.contains("\u{1B}[31m  - [0] #30"), "\(terminal.stdout)")
        let noColor = try CLI.runProgram("/usr/bin/script", ["-qec", command, "/dev/null"], environment: ["NO_COLOR": "1"])
        #expect(noColor.stdout.contains("  - [0] #30") && !noColor.stdout.contains("\u{1B}["))
        let piped = try CLI.run(["diff", Self.healthy, profile], environment: ["NO_COLOR": ""])
        #expect(piped.stdout.contains("  - [0] #30") && !piped.stdout.contains("\u{1B}["))
    }

    /// A damaged window on one side is left out of the comparison and reported, not taken for a
    /// removal; the other windows are compared; 65 only when a side has nothing readable.
    @Test func aDamagedWindowIsReportedAndTheRestCompared() throws {
        let directory = try CLI.temporaryDirectory("sessionctl-diff")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let damaged = "\(directory)/damaged"
        try FileManager.default.copyItem(atPath: Self.healthy, toPath: damaged)
        let window = "E9D8C7B6-A5F4-4321-8765-0FEDCBA98765"
        let metadata = "\(damaged)/SessionStorage/\(window)/session_metadata.pb"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: metadata))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: metadata))

        let text = try CLI.run(["diff", Self.healthy, damaged])
        #expect(text.status == 1, "\(text.stderr)")
        #expect(text.stdout.contains("session \(window) not compared: not readable in B: \(metadata): damaged at byte"), "\(text.stdout)")
        #expect(!text.stdout.contains("removed"), "\(text.stdout)")

        let json = try CLI.run(["diff", Self.healthy, damaged, "--format", "json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(document["identical"] as? Bool == false)
        let unreadable = try #require(document["unreadable"] as? [[String: Any]])
        #expect(unreadable.count == 1 && unreadable.first?["side"] as? String == "b" && unreadable.first?["session"] as? String == window)
        let compared = (document["sessions"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
        #expect(!compared.isEmpty && !compared.contains(window))

        let nothing = "\(directory)/nothing"
        try FileManager.default.createDirectory(atPath: "\(nothing)/SessionStorage/\(window)", withIntermediateDirectories: true)
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: "\(nothing)/SessionStorage/\(window)/session_metadata.pb"))
        #expect(try CLI.run(["diff", Self.healthy, nothing]).status == 65)
    }
}
