import Archive
import FileSystemKit
import SessionFormats
import SessionStore
import TestSupport
import Testing

@testable import CrashSimulator

/// The checker catches a recovery that loses what it sets aside: planted bugs (a set-aside copy
/// that skips the tab directories, with a manifest that agrees with what it copied; a recovery that
/// deletes instead of setting aside, and says nothing) fail crash-test by the set-aside oracle,
/// which compares the trees before and after recovery, and the reproducers replay. So does one
/// that sets aside, whole, a session Chrome would load: by the live-session oracle.
@Suite struct PlantedRecoveryBugTests {
    init() { Browsers.install() }

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
                        listed.append(
                            .object([
                                ("path", .string(name)), ("size", .int(Int64(bytes.count))),
                                ("sha256", .string(SHA256.hex(SHA256.hash(bytes))))
                            ]))
                    }
                }
                try writer.write(
                    Array(JSONValue.object([("files", .array(listed))]).serialized().utf8), to: joinPath(path, "manifest.json"))
            }
            return outcome
        }
    }

    /// The store's recovery, then each entry it made deleted and left out of its report: a
    /// recovery that deletes what Chrome would not load instead of setting it aside.
    struct DeletingRunner: RecoveryRunner {
        func recover(fileSystem: ModelFileSystem, profile: String) throws -> RecoveryOutcome {
            var outcome = try StoreRecoveryRunner.recover(on: fileSystem, profile: profile)
            for entry in outcome.setAside.keys.sorted() {
                try AtomicWriter(fileSystem: fileSystem).removeTree(joinPath(profile, entry))
            }
            outcome.setAside = [:]
            return outcome
        }
    }

    /// The store's recovery, then every live regular session set aside whole (a hard-link copy with
    /// its manifest, the live directory removed) and reported: a recovery that takes windows
    /// Chrome would load out of the profile while keeping every byte of them.
    struct SettingAsideLiveRunner: RecoveryRunner {
        func recover(fileSystem: ModelFileSystem, profile: String) throws -> RecoveryOutcome {
            var outcome = try StoreRecoveryRunner.recover(on: fileSystem, profile: profile)
            let setAside = SessionSetAside(writer: AtomicWriter(fileSystem: fileSystem), profile: profile)
            for id in (try? fileSystem.list(joinPath(profile, ProfileLayout.optimizedDirectory))) ?? [] where !id.hasPrefix(".") {
                let key = SessionKey(id: id, incognito: false)
                let entry = try setAside.push(key, reason: "test", time: StoreRecoveryRunner.launchTime, method: .linkCopy)
                outcome.setAside[entry.path] = ProfileLayout.sessionDirectory(id, incognito: false)
                outcome.restored[key.description] = nil
            }
            return outcome
        }
    }

    /// Whole in Backups/ and reported, so the set-aside oracle accepts it; still a window lost.
    @Test func aRecoveryThatSetsAsideASessionChromeWouldLoadIsCaughtAndReplays() throws {
        var configuration = CrashTest.Configuration()
        configuration.workload = "small"
        configuration.model = .process
        let report = try CrashTest(configuration: configuration, runner: SettingAsideLiveRunner()).run()
        let failure = try #require(report.result.failures.first { $0.oracle == .liveSessions }, "\(report.result.failuresByOracle)")
        #expect(failure.message.contains("though Chrome would load it"))
        #expect(!failure.findings.contains { $0.oracle == .collateralLoss }, "the set-aside oracle accepts the whole copy")
        let replayed = try Replayer(runner: SettingAsideLiveRunner()).replay(report.reproducer(failure))
        #expect(replayed.findings.contains { $0.oracle == .liveSessions })
    }

    @Test func aRecoveryThatDeletesInsteadOfSettingAsideIsCaughtAndReplays() throws {
        var configuration = CrashTest.Configuration()
        configuration.workload = "crash-loop"
        configuration.model = .process
        let report = try CrashTest(configuration: configuration, runner: DeletingRunner()).run()
        let failure = try #require(
            report.result.failures.first { $0.findings.contains { $0.message.contains("without setting it aside whole") } },
            "\(report.result.failuresByOracle)")
        let replayed = try Replayer(runner: DeletingRunner()).replay(report.reproducer(failure))
        #expect(replayed.findings.contains { $0.message.contains("without setting it aside whole") })
    }

    @Test func aSetAsideCopyWithoutItsTabsIsCaughtAndReplays() throws {
        var configuration = CrashTest.Configuration()
        configuration.workload = "crash-loop"
        configuration.model = .process
        let report = try CrashTest(configuration: configuration, runner: ShallowSetAsideRunner()).run()
        let failure = try #require(
            report.result.failures.first { $0.findings.contains { $0.message.contains("which lacks or changed") } },
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
