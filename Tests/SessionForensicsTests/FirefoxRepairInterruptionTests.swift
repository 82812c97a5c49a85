import Foundation
import SessionFormats
import SessionModel
import SessionStore
import Testing

@testable import SessionForensics

/// Repair of Firefox for iOS windows interrupted at every single file operation (the process dies
/// there): no original file is lost, and a plain second run leaves the windows an uninterrupted
/// run leaves, clean, with nothing of its own behind.
@Suite struct FirefoxRepairInterruptionTests {
    static let gallery = GalleryTests.repository.appendingPathComponent("Fixtures/firefox-ios/gallery").path

    static func copy(_ name: String) throws -> String {
        let target = FileManager.default.temporaryDirectory.appendingPathComponent("firefox-repair-\(name)-\(UUID().uuidString)").path
        try FileManager.default.copyItem(atPath: "\(gallery)/\(name)", toPath: target)
        return target
    }

    /// Each window's tabs as Firefox loads them: URL and title in order (new UUIDs differ from run to run).
    static func windows(_ profile: String) throws -> [[String]] {
        let input = try InputOpener.open(profile)
        let sessions = try SessionReader(input: input).readAll(history: false)
        return sessions.map { $0.tabs.map { "\($0.url) \($0.title)" } }
    }

    @Test(arguments: ["window-file-unparsable", "window-lost", "window-only-in-backup", "tab-uuid-duplicate", "tab-state-unparsable"])
    func aRerunAfterAnInterruptionAnywhereLeavesWhatAWholeRunLeaves(_ name: String) throws {
        let reference = try Self.copy(name)
        defer { try? FileManager.default.removeItem(atPath: reference) }
        let whole = try Repairer(profile: reference, aside: AsideTestSupport.aside(reference)).run(dryRun: false)
        #expect(whole.isClean, "\(name): \(whole.remaining.map(\.message))")
        let expected = try Self.windows(reference)
        var step = 1
        while true {
            let profile = try Self.copy(name)
            defer { try? FileManager.default.removeItem(atPath: profile) }
            let originalFiles = AsideTestSupport.snapshot(profile)
            let interrupted = Repairer(
                profile: profile, aside: AsideTestSupport.aside(profile, fileSystem: ProcessCrashFileSystem(stopAt: step)))
            let completed = (try? interrupted.run(dryRun: false)) != nil
            let present = Set(AsideTestSupport.snapshot(profile).values)
            for (path, data) in originalFiles where !present.contains(data) {
                Issue.record("\(name): \(path) lost when interrupted at operation \(step)")
            }
            let rerun = try Repairer(profile: profile, aside: AsideTestSupport.aside(profile)).run(dryRun: false)
            #expect(rerun.isClean, "\(name) after operation \(step): \(rerun.remaining.map(\.message))")
            #expect(try Self.windows(profile) == expected, "\(name): windows differ after operation \(step)")
            let leftovers = AsideTestSupport.snapshot(profile).keys.filter { $0.contains(AtomicWriter.temporaryPrefix) }
            #expect(leftovers.isEmpty, "\(name) after operation \(step): \(leftovers)")
            if completed { break }
            step += 1
        }
        #expect(step > 3, "\(name): the repair made file operations")
    }
}
