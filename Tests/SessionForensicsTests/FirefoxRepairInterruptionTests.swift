import Foundation
import SessionFormats
import SessionModel
import SessionStore
import TestSupport
import Testing

@testable import SessionForensics

/// Repair of Firefox for iOS windows interrupted at every single file operation (the process dies
/// there): no original file is lost, and a plain second run leaves the windows an uninterrupted
/// run leaves, clean, with nothing of its own behind.
@Suite struct FirefoxRepairInterruptionTests {
    init() { Browsers.install() }

    static let gallery = GalleryTests.repository.appendingPathComponent("Fixtures/firefox-ios/gallery").path

    static func copy(_ name: String) throws -> String { try RepairGalleryTests.copy(name, from: gallery) }

    /// Each window's tabs as Firefox loads them: URL and title in order (new UUIDs differ from run to run).
    static func windows(_ profile: String) throws -> [[String]] {
        let input = try InputOpener.open(profile)
        let sessions = try SessionReader(input: input).readAll(history: false)
        return sessions.map { $0.tabs.map { "\($0.url) \($0.title)" } }
    }

    @Test(arguments: [
        "window-file-unparsable", "window-lost", "window-only-in-backup", "tab-uuid-duplicate", "tab-state-unparsable",
        "legacy-archive-unmigrated"
    ])
    func aRerunAfterAnInterruptionAnywhereLeavesWhatAWholeRunLeaves(_ name: String) throws {
        let reference = try Self.copy(name)
        defer { try? FileManager.default.removeItem(atPath: reference) }
        let whole = try Repairer(profile: reference, aside: AsideTestSupport.aside(reference)).run(dryRun: false)
        #expect(whole.isClean, "\(name): \(whole.remaining.map(\.message))")
        let expected = try Self.windows(reference)
        try RepairInterruptionTests.interruptEverywhere(name, copy: Self.copy) { profile, step in
            let windows = try Self.windows(profile)
            #expect(windows == expected, "\(name): windows differ after operation \(step)")
        }
    }
}
