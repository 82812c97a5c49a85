import Foundation
import SessionFormats
import SessionModel
import SessionStore
import TestSupport
import Testing

@testable import SessionForensics

/// Repair interrupted at every single file operation (the process dies there: that operation and
/// every later one fail): no original file is lost, each window is live or set aside, and a plain
/// second run leaves exactly what an uninterrupted run leaves, clean.
@Suite struct RepairInterruptionTests {
    init() { Browsers.install() }

    typealias Support = MigrationTestSupport

    static let profiles = [
        "metadata-truncated", "metadata-missing", "tab-id-duplicate", "tab-no-history",
        "tab-data-truncated", "legacy-selected-index", "legacy-entries-foreign", "opener-self"
    ]

    /// The live sessions an uninterrupted repair leaves.
    static func reference(_ name: String) throws -> [Session] {
        let profile = try RepairGalleryTests.copy(name)
        defer { try? FileManager.default.removeItem(atPath: profile) }
        _ = try Repairer(profile: profile, aside: AsideTestSupport.aside(profile)).run(dryRun: false)
        return Support.comparable(try Support.liveSessions(profile))
    }

    @Test(arguments: profiles)
    func aRerunAfterAnInterruptionAnywhereLeavesWhatAWholeRunLeaves(_ name: String) throws {
        let expected = try Self.reference(name)
        try Self.interruptEverywhere(name, copy: { try RepairGalleryTests.copy($0) }) { profile, step in
            let live = Support.comparable(try Support.liveSessions(profile))
            #expect(live == expected, "\(name): live sessions differ after operation \(step)")
        }
    }

    /// Repairs a fresh copy (`copy`) of profile `name` interrupted at each file operation in turn,
    /// until a run completes: no original file may be lost, a plain second run must leave the
    /// profile clean with nothing of the repair's own behind, and `check` looks at what it left.
    static func interruptEverywhere(
        _ name: String, copy: (String) throws -> String, check: (_ profile: String, _ step: Int) throws -> Void
    ) throws {
        var step = 1
        while true {
            let profile = try copy(name)
            defer { try? FileManager.default.removeItem(atPath: profile) }
            let originalFiles = AsideTestSupport.snapshot(profile)
            let interrupted = Repairer(
                profile: profile, aside: AsideTestSupport.aside(profile, fileSystem: ProcessCrashFileSystem(stopAt: step)))
            let completed = (try? interrupted.run(dryRun: false)) != nil

            // Nothing of the original is gone: every file's bytes are live or in Backups/.
            let present = Set(AsideTestSupport.snapshot(profile).values)
            for (path, data) in originalFiles where !present.contains(data) {
                Issue.record("\(name): \(path) lost when interrupted at operation \(step)")
            }
            // A plain second run finishes the job.
            let rerun = try Repairer(profile: profile, aside: AsideTestSupport.aside(profile)).run(dryRun: false)
            #expect(rerun.isClean, "\(name) after operation \(step): \(rerun.remaining.map(\.message))")
            try check(profile, step)
            let leftovers = AsideTestSupport.snapshot(profile).keys.filter {
                $0.contains(RepairResumption.stagingPrefix) || $0.contains(AtomicWriter.temporaryPrefix)
            }
            #expect(leftovers.isEmpty, "\(name) after operation \(step): \(leftovers)")
            if completed { break }
            step += 1
        }
        #expect(step > 3, "\(name): the repair made file operations")
    }

    /// A staged copy without its list file is never put in place, even where the live directory
    /// is gone: it is an unfinished write, removed; the window's original stays where it is.
    @Test func anUnfinishedStagedCopyIsRemovedNotPromoted() throws {
        let profile = try RepairGalleryTests.copy("healthy")
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let storage = "\(profile)/SessionStorage"
        let id = try #require(try FileManager.default.contentsOfDirectory(atPath: storage).sorted().first)
        let staged = "\(storage)/\(RepairResumption.stagingPrefix)\(id)"
        try FileManager.default.createDirectory(atPath: "\(staged)/00000005", withIntermediateDirectories: true)
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: "\(staged)/00000005/data.pb"))
        try FileManager.default.moveItem(atPath: "\(storage)/\(id)", toPath: "\(profile)/elsewhere")
        let resumption = RepairResumption(aside: Aside(profile: profile, toolVersion: "test"))
        #expect(resumption.staged() == ["SessionStorage/\(RepairResumption.stagingPrefix)\(id)"])
        #expect(try resumption.settleAll() == [.removedUnfinished(directory: "SessionStorage/\(RepairResumption.stagingPrefix)\(id)")])
        #expect(!FileManager.default.fileExists(atPath: staged) && !FileManager.default.fileExists(atPath: "\(storage)/\(id)"))
    }

    /// The store's launch, given sessionctl's settling and run instead of a second repair after an
    /// interruption anywhere, settles what the repair left as its next run would: every window an uninterrupted run leaves live is
    /// restored (or, where Chrome could not load it, set aside whole), no original byte is gone,
    /// and nothing of the repair's own is left.
    @Test(arguments: ["tab-no-history", "tab-data-truncated", "tab-id-duplicate"])
    func theStoresLaunchAfterAnInterruptionAnywhereRestoresEveryWindow(_ name: String) throws {
        let expected = Set(try Self.reference(name).map { SessionKey(id: $0.id, incognito: $0.incognito) })
        var step = 1
        while true {
            let profile = try RepairGalleryTests.copy(name)
            defer { try? FileManager.default.removeItem(atPath: profile) }
            let originalFiles = AsideTestSupport.snapshot(profile)
            let interrupted = Repairer(
                profile: profile, aside: AsideTestSupport.aside(profile, fileSystem: ProcessCrashFileSystem(stopAt: step)))
            let completed = (try? interrupted.run(dryRun: false)) != nil

            let report = try SessionService.launch(
                profile: profile, clock: VirtualClock(), options: .init(settling: [InterruptedCommandSettling()])
            ).launchReport
            let restored = Set(report.restored.map(\.key))
            let setAside = Set(report.setAside.map(\.key))
            #expect(
                expected.subtracting(restored).subtracting(setAside).isEmpty,
                "\(name) after operation \(step): restored \(restored), set aside \(setAside)")
            let present = Set(AsideTestSupport.snapshot(profile).values)
            for (path, data) in originalFiles where !present.contains(data) {
                Issue.record("\(name): \(path) lost when interrupted at operation \(step) and launched")
            }
            let leftovers = AsideTestSupport.snapshot(profile).keys.filter {
                $0.contains(".sessionctl-") || $0.contains(AtomicWriter.temporaryPrefix)
            }
            #expect(leftovers.isEmpty, "\(name) after operation \(step): \(leftovers)")
            if completed { break }
            step += 1
        }
    }
}
