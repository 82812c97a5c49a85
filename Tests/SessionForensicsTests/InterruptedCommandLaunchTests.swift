import FileSystemKit
import Foundation
import SessionFormats
import SessionModel
import SessionStore
import TestSupport
import Testing

@testable import SessionForensics

/// The store's launch, given sessionctl's settling (`InterruptedCommandSettling`), settles what an
/// interrupted sessionctl command left before it reads any session, as the command's next run
/// would: a repair's window that is neither live nor staged comes back from `Backups/`, a finished
/// staged repair goes into its place, an unfinished one goes, and nothing named `.sessionctl-*` is
/// ever loaded as a session.
@Suite struct InterruptedCommandLaunchTests {
    init() { Browsers.install() }

    private let storage = "SessionStorage"
    private let directory = "SessionStorage/{SyntheticIdentifier}"

    /// A profile with one saved window of two tabs, in a scratch directory.
    private struct SavedProfile {
        let scratch: Scratch
        let clock = VirtualClock()
        var profile: String { scratch.path("Default") }

        init() throws {
            scratch = try Scratch()
            let service = try launch()
            let window = try service.openWindow()
            for name in ["a", "b"] { window.openTab(url: "https://\(name).example/") }
            service.saveNow()
        }

        /// Launches the store on the profile with sessionctl's settling, as after the app was killed.
        func launch() throws -> SessionService {
            try SessionService.launch(profile: profile, clock: clock, options: .init(settling: [InterruptedCommandSettling()]))
        }

        /// The URLs of the main window on disk, in order.
        func urlsOnDisk() -> [String] {
            let key = SessionKey(id: Session.syntheticIdentifier, incognito: false)
            return SessionDirectoryLoader(fileSystem: POSIXFileSystem(), profile: profile).load(key).session?.tabs.map(\.url) ?? []
        }

        func exists(_ relative: String) -> Bool { scratch.exists("Default/\(relative)") }

        func list(_ relative: String) -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: scratch.path("Default/\(relative)"))) ?? []).sorted()
        }
    }

    @Test func aWindowARepairSetAsideWithoutItsCopyComesBackAtLaunch() throws {
        let saved = try SavedProfile()
        defer { saved.scratch.remove() }
        let writer = AtomicWriter()
        let content = try ContentDigest.ofDirectory("\(saved.profile)/\(directory)", fileSystem: writer.fileSystem)
        let entry = try SessionSetAside(writer: writer, profile: saved.profile)
            .push(SessionKey(id: Session.syntheticIdentifier, incognito: false), reason: "sessionctl repair", time: saved.clock.now)
        try RepairIntent(directories: [directory], contents: [directory: content]).write(writer, profile: saved.profile)
        #expect(!saved.exists(directory))

        let service = try saved.launch()
        #expect(try service.openWindow().tabs.count == 2)
        #expect(saved.urlsOnDisk() == ["https://a.example/", "https://b.example/"])
        #expect(service.launchReport.settledCommands.contains { $0.contains(entry.path) })
        #expect(!saved.exists(entry.path), "the entry went back into place")
        #expect(!saved.exists(RepairIntent.fileName))
    }

    /// An intent record comes with the profile, from anywhere: a directory it names outside the
    /// profile's session directories is never written to.
    @Test func anIntentNamingAPlaceOutsideTheSessionDirectoriesIsIgnored() throws {
        let saved = try SavedProfile()
        defer { saved.scratch.remove() }
        let writer = AtomicWriter()
        _ = try SessionSetAside(writer: writer, profile: saved.profile)
            .push(SessionKey(id: Session.syntheticIdentifier, incognito: false), reason: "sessionctl repair", time: saved.clock.now)
        try RepairIntent(directories: ["../outside/{SyntheticIdentifier}", "Backups/{SyntheticIdentifier}", "SessionStorage/../../x"])
            .write(writer, profile: saved.profile)
        _ = try saved.launch()
        #expect(!saved.scratch.exists("outside") && !saved.scratch.exists("x"))
        #expect(saved.list("Backups/{SyntheticIdentifier}").count == 1, "the entry stays set aside")
        #expect(!saved.exists(RepairIntent.fileName))
    }

    @Test func aFinishedStagedRepairGoesIntoItsEmptyPlace() throws {
        let saved = try SavedProfile()
        defer { saved.scratch.remove() }
        try POSIXFileSystem().rename(
            "\(saved.profile)/\(directory)",
            to: "\(saved.profile)/\(storage)/\(InterruptedCommands.repairStagingPrefix){SyntheticIdentifier}")
        let service = try saved.launch()
        #expect(try service.openWindow().tabs.count == 2)
        #expect(saved.list(storage) == ["{SyntheticIdentifier}"])
    }

    @Test func anUnfinishedStagedRepairGoesAndIsNeverLoaded() throws {
        let saved = try SavedProfile()
        defer { saved.scratch.remove() }
        let staged = "\(storage)/\(InterruptedCommands.repairStagingPrefix){SyntheticIdentifier}"
        try POSIXFileSystem().mkdir("\(saved.profile)/\(staged)", mode: 0o700)
        let service = try saved.launch()
        #expect(try service.openWindow().tabs.count == 2)
        #expect(!saved.exists(staged))
        #expect(service.launchReport.restored.map(\.key.id) == [Session.syntheticIdentifier])
    }

    @Test func aCommandRunningOnTheProfileIsLeftAlone() throws {
        let saved = try SavedProfile()
        defer { saved.scratch.remove() }
        let staged = "\(storage)/\(InterruptedCommands.repairStagingPrefix){SyntheticIdentifier}"
        try POSIXFileSystem().mkdir("\(saved.profile)/\(staged)", mode: 0o700)
        let lock = try ProfileLock.acquire(profile: saved.profile)
        let service = try saved.launch()
        #expect(saved.exists(staged), "a running command's staging is not the launch's to settle")
        #expect(service.launchReport.restored.map(\.key.id) == [Session.syntheticIdentifier])
        withExtendedLifetime(lock) {}
    }
}
