import FileSystemKit
import Foundation
import SessionFormats
import SessionModel
import SessionStore
import TestSupport
import Testing

@testable import ChromeIOS
@testable import SessionForensics

/// What a command finds after another was interrupted, and how it settles it: a repair whose
/// repaired copy was lost after the original was set aside, a restore cut before its entry went,
/// leftovers of drops, restores and migrations; and a profile path that is a symbolic link.
@Suite struct InterruptedCommandSettlingTests {
    init() { Browsers.install() }

    private func sessionDirectory(_ profile: String) throws -> String {
        let id = try #require(try FileManager.default.contentsOfDirectory(atPath: "\(profile)/SessionStorage").sorted().first)
        return "SessionStorage/\(id)"
    }

    @Test func aRepairWhoseRepairedCopyWasLostRestoresTheOriginalAndRepairsAgain() throws {
        let profile = try RepairGalleryTests.copy("tab-id-duplicate")
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let directory = try sessionDirectory(profile)
        let uninterrupted = try RepairGalleryTests.copy("tab-id-duplicate")
        defer { try? FileManager.default.removeItem(atPath: uninterrupted) }
        _ = try Repairer(profile: uninterrupted, aside: AsideTestSupport.aside(uninterrupted)).run(dryRun: false)
        // As a power loss can leave it: the intent written, the original set aside, the repaired
        // copy gone with the rename that was to put it in place.
        let aside = AsideTestSupport.aside(profile)
        let content = try ContentDigest.ofDirectory("\(profile)/\(directory)", fileSystem: aside.fileSystem)
        try RepairIntent(directories: [directory], contents: [directory: content]).write(aside.writer, profile: profile)
        _ = try aside.push(session: nil, incognito: false, reason: "sessionctl repair, before fixing: tab-id-duplicate")
        #expect(!FileManager.default.fileExists(atPath: "\(profile)/\(directory)"))

        let result = try Repairer(profile: profile, aside: aside).run(dryRun: false)
        #expect(result.isClean)
        #expect(
            result.steps.contains { if case .settledSetAside(let what) = $0 { return what.contains("restored") } else { return false } })
        #expect(!FileManager.default.fileExists(atPath: "\(profile)/\(RepairIntent.fileName)"))
        let repaired = try SessionReader(input: InputOpener.open(profile)).readAll(history: true)
        let expected = try SessionReader(input: InputOpener.open(uninterrupted)).readAll(history: true)
        #expect(repaired.map { $0.tabs.map(\.id) } == expected.map { $0.tabs.map(\.id) })
    }

    @Test func aRestoreCutBeforeItsEntryWentIsFinishedByRunningItAgain() throws {
        let profile = try RepairGalleryTests.copy("healthy")
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let directory = try sessionDirectory(profile)
        let aside = AsideTestSupport.aside(profile)
        let entry = try #require(try aside.push(session: nil, incognito: false, reason: "test").first)
        // The copy is live but the entry is still there.
        try AtomicWriter().linkTree("\(profile)/\(entry.path)", to: "\(profile)/\(directory)")
        try FileManager.default.removeItem(atPath: "\(profile)/\(directory)/manifest.json")
        let outcome = try aside.restore(entry.name, force: false)
        #expect(outcome.destination == directory)
        #expect(try aside.list().isEmpty)
        #expect(FileManager.default.fileExists(atPath: "\(profile)/\(directory)/session_metadata.pb"))
    }

    @Test func aRestoreIntoADifferentLiveSessionIsStillRefused() throws {
        let profile = try RepairGalleryTests.copy("healthy")
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let directory = try sessionDirectory(profile)
        let aside = AsideTestSupport.aside(profile)
        let entry = try #require(try aside.push(session: nil, incognito: false, reason: "test").first)
        try FileManager.default.createDirectory(atPath: "\(profile)/\(directory)", withIntermediateDirectories: true)
        try Data([1]).write(to: URL(fileURLWithPath: "\(profile)/\(directory)/session_metadata.pb"))
        #expect(throws: ForensicsError.liveSessionInTheWay(path: "\(profile)/\(directory)")) {
            _ = try aside.restore(entry.name, force: false)
        }
        #expect(try aside.list().count == 1)
    }

    @Test func leftoversOfDropsRestoresAndMigrationsAreSettled() throws {
        let profile = try RepairGalleryTests.copy("healthy")
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let aside = AsideTestSupport.aside(profile)
        let entry = try #require(try aside.push(session: nil, incognito: false, reason: "test").first)
        let session = parentPath("\(profile)/\(entry.path)")
        let manager = FileManager.default
        try manager.createDirectory(
            atPath: "\(session)/\(Aside.droppingPrefix)20260101T000000.000000Z/x", withIntermediateDirectories: true)
        try manager.createDirectory(
            atPath: "\(profile)/SessionStorage/\(Aside.restoringPrefix)\(entry.session)/00000005", withIntermediateDirectories: true)
        try manager.createDirectory(atPath: "\(profile)/\(Migrator.displacedTree)", withIntermediateDirectories: true)
        try Data([1]).write(to: URL(fileURLWithPath: "\(profile)/\(entry.path)/\(AtomicWriter.temporaryPrefix)manifest.json.9"))
        let done = try aside.settleInterrupted()
        #expect(done.count == 4, "\(done)")
        #expect(try manager.contentsOfDirectory(atPath: session) == [lastPathComponent(entry.path)])
        #expect(try manager.contentsOfDirectory(atPath: "\(profile)/SessionStorage").isEmpty)
        #expect(!manager.fileExists(atPath: "\(profile)/\(Migrator.displacedTree)"))
        #expect(try aside.list().count == 1)
        #expect(try aside.settleInterrupted().isEmpty, "settling twice does nothing more")
    }

    @Test func aProfileReachedThroughASymbolicLinkIsWorkedOnWhereItIs() throws {
        let profile = try RepairGalleryTests.copy("tab-id-duplicate")
        let link = profile + "-link"
        defer {
            try? FileManager.default.removeItem(atPath: profile)
            try? FileManager.default.removeItem(atPath: link)
        }
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: profile)
        let target = try AsideTarget.locate(link)
        #expect(target.profile == link && target.session == nil)
        let result = try Repairer(profile: link, aside: AsideTestSupport.aside(link)).run(dryRun: false)
        #expect(result.isClean)
        #expect(FileManager.default.fileExists(atPath: "\(profile)/Backups"))
    }
}
