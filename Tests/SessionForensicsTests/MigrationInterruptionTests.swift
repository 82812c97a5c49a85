import Foundation
import SessionFormats
import SessionModel
import SessionStore
import TestSupport
import Testing

@testable import ChromeIOS
@testable import SessionForensics

/// Migration interrupted after every single file operation: the live sessions are always exactly
/// the original ones (in the old format or the new), no file of the source is lost, and a second
/// run finishes the job.
@Suite struct MigrationInterruptionTests {
    init() { Browsers.install() }

    typealias Support = MigrationTestSupport

    func interruptEverywhere(target: MigrationTarget, makeProfile: () throws -> String) throws {
        var step = 1
        while true {
            let profile = try makeProfile()
            defer { try? FileManager.default.removeItem(atPath: profile) }
            let original = Support.comparable(try Support.liveSessions(profile))
            let originalFiles = AsideTestSupport.snapshot(profile)
            let plan = try Support.migrator(profile).plan(to: target)
            let completed = (try? Support.migrator(profile, fileSystem: ProcessCrashFileSystem(stopAt: step)).apply(plan)) != nil

            // Exactly the original sessions are live, whichever format that is.
            let live = try Support.liveSessions(profile)
            #expect(Support.comparable(live) == original, "live sessions differ after operation \(step)")
            let now = AsideTestSupport.snapshot(profile)
            let present = Set(now.values)
            for (path, data) in originalFiles where !present.contains(data) {
                Issue.record("\(path) lost when interrupted at operation \(step)")
            }
            // A second run finishes what the first left.
            let rerun = Support.migrator(profile, fileSystem: ProcessCrashFileSystem())
            _ = try rerun.apply(rerun.plan(to: target))
            let finished = try Support.liveSessions(profile)
            #expect(finished.allSatisfy { $0.format == target.format }, "after operation \(step)")
            #expect(Support.comparable(finished) == original, "after operation \(step) and a second run")
            #expect(try Support.problems(profile) == [], "after operation \(step) and a second run")
            let leftovers = AsideTestSupport.snapshot(profile).keys.filter {
                $0.contains(Migrator.newTree) || $0.contains(Migrator.displacedTree) || $0.contains(AtomicWriter.temporaryPrefix)
            }
            #expect(leftovers.isEmpty, "after operation \(step) and a second run: \(leftovers)")
            if completed { break }
            step += 1
        }
        #expect(step > 20)
    }

    @Test func legacyToOptimized() throws {
        try interruptEverywhere(target: .optimized, makeProfile: Support.makeSmallLegacyProfile)
    }

    @Test func optimizedToLegacy() throws {
        try interruptEverywhere(target: .legacy, makeProfile: Support.makeSmallOptimizedProfile)
    }
}
