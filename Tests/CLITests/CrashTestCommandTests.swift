import Foundation
import Testing

/// `sessionctl crash-test` as CI runs it: exit statuses, the JSON contract, reproducers that replay.
@Suite struct CrashTestCommandTests {
    private func json(_ result: CLIResult) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    @Test func theSafeProtocolPassesAndSaysSo() throws {
        let result = try CLI.run(["crash-test", "--workload", "small", "--model", "process"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("no failing state"))
        #expect(result.stderr.isEmpty, "no progress line when standard error is not a terminal")
    }

    @Test func aFlawedProtocolFailsWithReproducersInTheJSONDocument() throws {
        let result = try CLI.run(["crash-test", "--workload", "small", "--model", "process", "--protocol", "in-place", "--format", "json"])
        #expect(result.status == 1)
        let document = try json(result)
        #expect(document["schema"] as? String == "sessionctl.crash-test/1")
        #expect(document["browser"] as? String == "chrome-ios")
        #expect(document["workload"] as? String == "small")
        #expect(document["model"] as? String == "process")
        #expect(document["protocol"] as? String == "in-place")
        #expect(document["mode"] as? String == "simulated")
        #expect((document["operations"] as? Int ?? 0) > 0)
        #expect(document["acks"] as? Int == 2)
        let states = try #require(document["states"] as? [String: Any])
        let explored = try #require(states["explored"] as? Int)
        let unique = try #require(states["unique"] as? Int)
        let failed = try #require(states["failed"] as? Int)
        #expect(explored >= unique && unique > 0 && failed > 0)
        #expect(document["elapsedSeconds"] is Double || document["elapsedSeconds"] is Int)
        #expect(document["statesPerSecond"] != nil)
        let failures = try #require(document["failures"] as? [[String: Any]])
        #expect(failures.count == failed, "every failing state is listed")
        #expect(document["failuresOmitted"] as? Int == 0)
        #expect(document["verdict"] as? String == "fail")
        let oracles = Set(["atomicity", "durability", "collateralLoss", "liveSessions", "privacy", "recovery", "crashLoopCount", "hygiene"])
        for failure in failures {
            #expect(oracles.contains(failure["oracle"] as? String ?? ""))
            #expect(failure["crashAfter"] is Int)
            #expect((failure["reproducer"] as? String ?? "").hasPrefix("workload=small;model=process;protocol=in-place;seed=1;crash="))
            #expect(!(failure["message"] as? String ?? "").isEmpty)
            #expect((failure["oracles"] as? [String])?.first == failure["oracle"] as? String)
        }
        let atomicity = try #require(failures.first { $0["oracle"] as? String == "atomicity" })
        let replay = try CLI.run(["crash-test", "--replay", try #require(atomicity["reproducer"] as? String)])
        #expect(replay.status == 1)
        #expect(replay.stdout.contains("FAIL atomicity: \(atomicity["message"] as? String ?? "")"))
        #expect(replay.stdout.contains("crash after operation \(atomicity["crashAfter"] as? Int ?? -1) of"))
    }

    @Test func compressIsCrashTestedAsACommand() throws {
        let profile = CLI.path("Fixtures/gallery/healthy")
        let result = try CLI.run(["crash-test", "--command", "compress", "--input", profile, "--format", "json"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let document = try json(result)
        #expect(document["mode"] as? String == "command")
        #expect(document["workload"] as? String == "compress \(profile)")
        #expect(document["model"] as? String == "pessimistic")
        #expect((document["operations"] as? Int ?? 0) > 5)
        let states = try #require(document["states"] as? [String: Any])
        #expect((states["explored"] as? Int ?? 0) > 0)
        #expect(states["failed"] as? Int == 0)
        #expect(document["verdict"] as? String == "pass")
        let usage = try CLI.run(["crash-test", "--command", "zip", "--input", profile])
        #expect(usage.status == 64)
        #expect(usage.stderr.contains("compress, decompress, report"), "\(usage.stderr)")
    }

    @Test func aCappedListSaysHowManyItLeavesOut() throws {
        let arguments = ["crash-test", "--workload", "small", "--model", "process", "--protocol", "in-place"]
        let listed = try CLI.run(arguments + ["--format", "json", "--max-failures", "2"])
        let document = try json(listed)
        let failed = try #require((document["states"] as? [String: Any])?["failed"] as? Int)
        #expect((document["failures"] as? [Any])?.count == 2)
        #expect(document["failuresOmitted"] as? Int == failed - 2)
        let text = try CLI.run(arguments + ["--max-failures", "1"])
        #expect(text.status == 1)
        #expect(text.stdout.contains("\(failed - 1) more failing states not shown"))
    }

    @Test func aRunStoppedByMaxStatesExits3AndSaysSo() throws {
        let result = try CLI.run(["crash-test", "--workload", "small", "--max-states", "50", "--format", "json"])
        #expect(result.status == 3, "\(result.stderr)")
        let document = try json(result)
        #expect(document["truncated"] as? Bool == true)
        #expect(document["verdict"] as? String == "incomplete")
        #expect(result.stderr.contains("incomplete"))
        // Failures outrank incompleteness.
        let failing = try CLI.run([
            "crash-test", "--workload", "small", "--model", "process", "--protocol", "in-place", "--max-states", "600"
        ])
        #expect(failing.status == 1)
    }

    @Test func aReplayReportsItsWorkloadAndVerdict() throws {
        let reproducer = "workload=small;model=process;protocol=chrome;seed=1;crash=30;keep=all"
        let result = try CLI.run(["crash-test", "--replay", reproducer, "--format", "json"])
        let document = try json(result)
        #expect((document["operations"] as? Int ?? 0) > 30)
        #expect(document["acks"] as? Int == 2)
        #expect(document["crashAfter"] as? Int == 30)
        #expect(document["verdict"] as? String == (result.status == 0 ? "pass" : "fail"))
    }

    @Test func theManPagesReplayExampleFails() throws {
        let page = try String(contentsOfFile: CLI.path("man/sessionctl-crash-test.1"), encoding: .utf8)
        // The example sets R to the reproducer's first fields, then replays "$R;<the rest>".
        let lines = page.split(separator: "\n").map(String.init)
        let prefix = try #require(lines.first { $0.hasPrefix("$ R='") }?.dropFirst("$ R='".count).prefix { $0 != "'" })
        let replay = try #require(lines.first { $0.contains("--replay \"$R") })
        let rest = try #require(replay.components(separatedBy: "\"$R").dropFirst().first?.prefix { $0 != "\"" })
        let reproducer = String(prefix) + String(rest)
        let result = try CLI.run(["crash-test", "--replay", reproducer, "--format", "json"])
        #expect(result.status == 1, "the example in sessionctl-crash-test(1) must still show a failure")
        let failures = try #require(try json(result)["failures"] as? [[String: Any]])
        #expect(failures.contains { $0["oracle"] as? String == "atomicity" })
    }

    @Test func everyWorkloadFileRunsClean() throws {
        let directory = CLI.path("Fixtures/workloads")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".workload") }.sorted()
        #expect(files.count >= 3)
        for file in files {
            let result = try CLI.run(["crash-test", "--workload", "\(directory)/\(file)", "--model", "process", "--max-states", "400"])
            // 0 when the file's states all fit in 400, else 3 (incomplete); never a failure.
            #expect([0, 3].contains(result.status), "\(file): \(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains("no failing state"), "\(file)")
        }
    }

    @Test func usageErrorsExit64() throws {
        for arguments in [
            ["--model", "ext5"], ["--protocol", "rsync"], ["--shard", "0/2"], ["--shard", "3/2"], ["--shard", "25/25"],
            ["--max-failures", "-1"], ["--max-states", "0"],
            ["--replay", "workload=small"], ["--replay", "workload=small;model=process;protocol=safe;seed=1;crash=x"]
        ] {
            let result = try CLI.run(["crash-test"] + arguments)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(!result.stderr.contains("Fatal error"))
        }
    }

    @Test func aReproducerPastTheWorkloadIsRefused() throws {
        let result = try CLI.run(["crash-test", "--replay", "workload=small;model=process;protocol=safe;seed=1;crash=100000;keep=all"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("sessionctl: crash-test: reproducer"))
    }

    @Test func workloadFilesThatAreMissingOrWrongExit66And65() throws {
        let missing = try CLI.run(["crash-test", "--workload", "/nonexistent/file.workload"])
        #expect(missing.status == 66)
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/bad.workload"
        try Data("launch\nopen t1 https://example.org/\nteleport t1\n".utf8).write(to: URL(fileURLWithPath: path))
        let bad = try CLI.run(["crash-test", "--workload", path])
        #expect(bad.status == 65)
        #expect(bad.stderr.contains("line 3: unknown event 'teleport'"))
    }
}

/// `sessionctl crash-test --kill`: real children killed, recovery on what they left on disk.
@Suite struct CrashTestKillTests {
    @Test func theSafeProtocolSurvivesRealKills() throws {
        let result = try CLI.run(["crash-test", "--kill", "8", "--workload", "small", "--format", "json"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(document["mode"] as? String == "kill")
        #expect(document["model"] as? String == "process")
        #expect(document["kills"] as? Int == 8)
        let states = try #require(document["states"] as? [String: Any])
        #expect(states["explored"] as? Int == 8)
        #expect(states["failed"] as? Int == 0)
    }

    /// Real kills judge live sessions too, with recovery run by the protocol the child wrote with:
    /// a sweep taking an interrupted repair's record, and a kept copy made as a set-aside, both
    /// leave windows out of the live profile; each failure replays.
    @Test(arguments: [("broad-sweep", "interrupted-repair"), ("drops-backed-up-session", "shortened-sessions")])
    func realKillsCatchALaunchThatTakesWindowsOutOfTheLiveProfile(_ writeProtocol: String, _ workload: String) throws {
        let scratch = try CLI.temporaryDirectory("kill")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let result = try CLI.run(
            ["crash-test", "--kill", "12", "--workload", workload, "--protocol", writeProtocol, "--format", "json"],
            environment: ["TMPDIR": scratch])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let failures = try #require(document["failures"] as? [[String: Any]])
        let live = try #require(failures.first { ($0["oracles"] as? [String] ?? []).contains("liveSessions") }, "\(failures)")
        let again = try CLI.run(["crash-test", "--replay", live["reproducer"] as? String ?? ""], environment: ["TMPDIR": scratch])
        #expect(again.status == 1 && again.stdout.contains("liveSessions"), "\(again.stdout)")
        let safe = try CLI.run(["crash-test", "--kill", "12", "--workload", workload], environment: ["TMPDIR": scratch])
        #expect(safe.status == 0, "\(safe.stdout)")
    }

    @Test func anInPlaceRewriteIsCaughtAndItsStateKept() throws {
        let scratch = try CLI.temporaryDirectory("kill")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let result = try CLI.run(
            ["crash-test", "--kill", "20", "--workload", "small", "--protocol", "in-place", "--format", "json"],
            environment: ["TMPDIR": scratch])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let failures = try #require(document["failures"] as? [[String: Any]])
        let atomicity = try #require(failures.first { $0["oracle"] as? String == "atomicity" })
        let directory = try #require(atomicity["directory"] as? String)
        #expect(directory.hasPrefix(scratch))
        #expect(FileManager.default.fileExists(atPath: "\(directory)/crashed/SessionStorage"))
        #expect(FileManager.default.fileExists(atPath: "\(directory)/profile"))
        let reproducer = try #require(atomicity["reproducer"] as? String)
        #expect(reproducer.hasPrefix("mode=kill;workload=small;protocol=in-place;seed=1;stop-at="))
        // Kills at random times are reported where they landed, and every failure replays.
        for failure in failures {
            #expect((failure["reproducer"] as? String ?? "").contains(";stop-at="), "\(failure)")
            #expect((failure["crashAfter"] as? Int ?? -1) >= 0)
            let again = try CLI.run(["crash-test", "--replay", failure["reproducer"] as? String ?? ""], environment: ["TMPDIR": scratch])
            #expect(again.status == 1, "\(failure["reproducer"] ?? "") did not fail again")
        }
        let replay = try CLI.run(["crash-test", "--replay", reproducer], environment: ["TMPDIR": scratch])
        #expect(replay.status == 1)
        #expect(replay.stdout.contains("FAIL atomicity: \(atomicity["message"] as? String ?? "")"))
    }

    @Test func passingRunsLeaveNothingBehind() throws {
        let scratch = try CLI.temporaryDirectory("kill")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let result = try CLI.run(["crash-test", "--kill", "4", "--workload", "small"], environment: ["TMPDIR": scratch])
        #expect(result.status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch).isEmpty)
    }

    @Test func aKillCountOfZeroIsAUsageError() throws {
        #expect(try CLI.run(["crash-test", "--kill", "0"]).status == 64)
    }
}
