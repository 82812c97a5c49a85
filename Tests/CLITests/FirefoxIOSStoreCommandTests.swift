import Foundation
import Testing

/// `sessionctl crash-test --store firefox-ios`: the JSON contract of a store run, its usage errors,
/// and its reproducers replayed from the command line.
@Suite struct FirefoxIOSStoreCommandTests {
    private func json(_ result: CLIResult) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    @Test func firefoxsProtocolLosesWindowsOnAPowerLossAndSaysHowOften() throws {
        let result = try CLI.run(["crash-test", "--store", "firefox-ios", "--workload", "small", "--format", "json"])
        #expect(result.status == 1, "\(result.stderr)")
        let document = try json(result)
        #expect(document["browser"] as? String == "firefox-ios")
        #expect(document["mode"] as? String == "store")
        #expect(document["protocol"] as? String == "firefox")
        #expect(document["model"] as? String == "pessimistic")
        #expect(document["acks"] as? Int == 3)
        let restores = try #require(document["restores"] as? [String: Int])
        let states = try #require(document["states"] as? [String: Any])
        #expect((restores["lost"] ?? 0) > 0 && (restores["older"] ?? 0) > 0 && restores["torn"] == 0)
        #expect(restores.values.reduce(0, +) == states["explored"] as? Int)
        let failure = try #require((document["failures"] as? [[String: Any]])?.first)
        let reproducer = try #require(failure["reproducer"] as? String)
        #expect(reproducer.hasPrefix("store=firefox-ios;workload=small;model=pessimistic;protocol=firefox;seed=1;crash="))
        let replay = try CLI.run(["crash-test", "--replay", reproducer])
        #expect(replay.status == 1)
        #expect(replay.stdout.contains("FAIL durability: \(failure["message"] as? String ?? "")"))
    }

    @Test func theDurableVariantPassesInText() throws {
        let result = try CLI.run(["crash-test", "--store", "firefox-ios", "--protocol", "firefox-durable", "--workload", "small"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("protocol firefox-durable"))
        #expect(result.stdout.contains("an earlier save in 0, nothing of a window in 0"))
        #expect(result.stdout.contains("no failing state"))
    }

    @Test(arguments: [
        ["--store", "firefox-ios", "--protocol", "safe"], ["--store", "edge"], ["--protocol", "firefox"],
        ["--store", "firefox-ios", "--kill", "3"], ["--store", "firefox-ios", "--shard", "1/2"]
    ])
    func optionsThatDoNotFitTheStoreAreUsageErrors(_ arguments: [String]) throws {
        let result = try CLI.run(["crash-test"] + arguments)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count <= 3)
    }
}

/// `sessionctl crash-test --store firefox-desktop`: the JSON contract of a run of Firefox
/// desktop's store, and its reproducers replayed from the command line.
@Suite struct FirefoxDesktopStoreCommandTests {
    @Test func firefoxsWriterLosesTheSessionOnAPowerLossAndSaysHowOften() throws {
        let result = try CLI.run(["crash-test", "--store", "firefox-desktop", "--format", "json"])
        #expect(result.status == 1, "\(result.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(document["browser"] as? String == "firefox-desktop")
        #expect(document["mode"] as? String == "store" && document["protocol"] as? String == "firefox")
        let restores = try #require(document["restores"] as? [String: Int])
        #expect((restores["lost"] ?? 0) > 0 && restores["torn"] == 0)
        let failure = try #require((document["failures"] as? [[String: Any]])?.first)
        let reproducer = try #require(failure["reproducer"] as? String)
        #expect(reproducer.hasPrefix("store=firefox-desktop;workload=typical;model=pessimistic;protocol=firefox;seed=1;crash="))
        let replay = try CLI.run(["crash-test", "--replay", reproducer])
        #expect(replay.status == 1 && replay.stdout.contains("FAIL durability: \(failure["message"] as? String ?? "")"), "\(replay.stdout)")
    }

    @Test func theDurableVariantPasses() throws {
        let result = try CLI.run(["crash-test", "--store", "firefox-desktop", "--protocol", "firefox-durable"])
        #expect(result.status == 0 && result.stdout.contains("no failing state"), "\(result.stdout)\(result.stderr)")
    }

    @Test(arguments: [["--store", "firefox-desktop", "--protocol", "safe"], ["--store", "firefox-desktop", "--kill", "3"]])
    func optionsThatDoNotFitTheStoreAreUsageErrors(_ arguments: [String]) throws {
        let result = try CLI.run(["crash-test"] + arguments)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
    }
}

/// `sessionctl crash-test --store chromium-desktop`: the JSON contract of a run of Chromium
/// desktop's store, and its reproducers replayed from the command line.
@Suite struct ChromiumDesktopStoreCommandTests {
    @Test func chromesWriterLosesTheSessionWhenAKillLeavesAnEmptyNewerFile() throws {
        let result = try CLI.run(["crash-test", "--store", "chromium-desktop", "--model", "process", "--format", "json"])
        #expect(result.status == 1, "\(result.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(document["browser"] as? String == "chromium-desktop")
        #expect(document["mode"] as? String == "store" && document["protocol"] as? String == "chromium")
        let restores = try #require(document["restores"] as? [String: Int])
        #expect((restores["lost"] ?? 0) > 0 && restores["torn"] == 0)
        let failure = try #require((document["failures"] as? [[String: Any]])?.first)
        let reproducer = try #require(failure["reproducer"] as? String)
        #expect(reproducer.hasPrefix("store=chromium-desktop;workload=typical;model=process;protocol=chromium;seed=1;crash="))
        let replay = try CLI.run(["crash-test", "--replay", reproducer])
        #expect(replay.status == 1 && replay.stdout.contains("FAIL durability: \(failure["message"] as? String ?? "")"), "\(replay.stdout)")
    }

    @Test func theDurableVariantPassesWhenOnlyTheProcessDies() throws {
        let result = try CLI.run(["crash-test", "--store", "chromium-desktop", "--protocol", "chromium-durable", "--model", "process"])
        #expect(result.status == 0 && result.stdout.contains("no failing state"), "\(result.stdout)\(result.stderr)")
    }

    @Test(arguments: [["--store", "chromium-desktop", "--protocol", "firefox"], ["--store", "chromium-desktop", "--from", "x"]])
    func optionsThatDoNotFitTheStoreAreUsageErrors(_ arguments: [String]) throws {
        let result = try CLI.run(["crash-test"] + arguments)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
    }
}
