import Archive
@testable import CrashSimulator
import FileSystemKit
import SessionFormats
import SessionStore
import Testing

/// The checker catches a recovery that sets sessions aside without all their files: the planted
/// bug (a recovery whose set-aside copy skips the tab directories, with a manifest that agrees
/// with what it copied) fails crash-test by the set-aside oracle, which compares each entry with
/// the session directory as it was before recovery, and the reproducer replays.
@Suite struct PlantedRecoveryBugTests {
    /// The store's recovery, then every tab directory of each entry it made removed and the
    /// entry's manifest rewritten to match what is left.
    struct ShallowSetAsideRunner: RecoveryRunner {
        func recover(fileSystem: ModelFileSystem, profile: String) throws -> RecoveryOutcome {
            let outcome = try StoreRecoveryRunner.recover(on: fileSystem, profile: profile)
            for entry in outcome.setAside.keys.sorted() {
                let path = joinPath(profile, entry)
                let writer = AtomicWriter(fileSystem: fileSystem)
                var listed: [JSONValue] = []
                for name in try fileSystem.list(path) where name != "manifest.json" {
                    if fileSystem.kind(of: joinPath(path, name)) == .directory {
                        try writer.removeTree(joinPath(path, name))
                    } else {
                        let bytes = try fileSystem.read(joinPath(path, name))
                        listed.append(.object([("path", .string(name)), ("size", .int(Int64(bytes.count))),
                                               ("sha256", .string(SHA256.hex(SHA256.hash(bytes))))]))
                    }
                }
                try writer.write(Array(JSONValue.object([("files", .array(listed))]).serialized().utf8), to: joinPath(path, "manifest.json"))
            }
            return outcome
        }
    }

    @Test func aSetAsideCopyWithoutItsTabsIsCaughtAndReplays() throws {
        var configuration = CrashTest.Configuration()
        configuration.workload = "crash-loop"
        configuration.model = .process
        let report = try CrashTest(configuration: configuration, runner: ShallowSetAsideRunner()).run()
        let failure = try #require(report.result.failures.first { $0.findings.contains { $0.message.contains("which lacks or changed") } },
                                   "\(report.result.failuresByOracle)")
        #expect(failure.findings.contains { $0.oracle == .collateralLoss })
        let replayed = try Replayer(runner: ShallowSetAsideRunner()).replay(report.reproducer(failure))
        #expect(replayed.findings.contains { $0.message.contains("which lacks or changed") })
    }

    @Test func theStoresOwnSetAsideIsWhole() throws {
        var configuration = CrashTest.Configuration()
        configuration.workload = "crash-loop"
        configuration.model = .process
        let report = try CrashTest(configuration: configuration).run()
        #expect(report.result.failed == 0)
    }
}
