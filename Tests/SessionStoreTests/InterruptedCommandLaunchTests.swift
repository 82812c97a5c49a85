import FileSystemKit
import SessionFormats
import SessionModel
import Testing

@testable import SessionStore

/// The store's launch settles what an interrupted sessionctl command left before it reads any
/// session, as the command's next run would: a repair's window that is neither live nor staged
/// comes back from `Backups/`, a finished staged repair goes into its place, an unfinished one
/// goes, and nothing named `.sessionctl-*` is ever loaded as a session.
@Suite struct InterruptedCommandLaunchTests {
    private let storage = "Default/SessionStorage"
    private let directory = "SessionStorage/{SyntheticIdentifier}"

    private func savedHarness() throws -> StoreHarness {
        let harness = try StoreHarness()
        for name in ["a", "b"] { harness.window.openTab(url: "https://\(name).example/") }
        harness.service.saveNow()
        return harness
    }

    @Test func aWindowARepairSetAsideWithoutItsCopyComesBackAtLaunch() throws {
        let harness = try savedHarness()
        let writer = AtomicWriter()
        let content = try ContentDigest.ofDirectory("\(harness.profile)/\(directory)", fileSystem: writer.fileSystem)
        let entry = try SessionSetAside(writer: writer, profile: harness.profile)
            .push(SessionKey(id: Session.syntheticIdentifier, incognito: false), reason: "sessionctl repair", time: harness.clock.now)
        try RepairIntent(directories: [directory], contents: [directory: content]).write(writer, profile: harness.profile)
        #expect(!harness.directory.exists("Default/\(directory)"))

        try harness.relaunch()
        #expect(harness.window.tabs.count == 2)
        #expect(harness.urlsOnDisk() == ["https://a.example/", "https://b.example/"])
        #expect(harness.service.launchReport.settledCommands.contains { $0.contains(entry.path) })
        #expect(!harness.directory.exists("Default/\(entry.path)"), "the entry went back into place")
        #expect(!harness.directory.exists("Default/\(RepairIntent.fileName)"))
    }

    /// An intent record comes with the profile, from anywhere: a directory it names outside the
    /// profile's session directories is never written to.
    @Test func anIntentNamingAPlaceOutsideTheSessionDirectoriesIsIgnored() throws {
        let harness = try savedHarness()
        let writer = AtomicWriter()
        _ = try SessionSetAside(writer: writer, profile: harness.profile)
            .push(SessionKey(id: Session.syntheticIdentifier, incognito: false), reason: "sessionctl repair", time: harness.clock.now)
        try RepairIntent(directories: ["../outside/{SyntheticIdentifier}", "Backups/{SyntheticIdentifier}", "SessionStorage/../../x"])
            .write(writer, profile: harness.profile)
        try harness.relaunch()
        #expect(!harness.directory.exists("outside") && !harness.directory.exists("x"))
        #expect(harness.directory.list("Default/Backups/{SyntheticIdentifier}").count == 1, "the entry stays set aside")
        #expect(!harness.directory.exists("Default/\(RepairIntent.fileName)"))
    }

    @Test func aFinishedStagedRepairGoesIntoItsEmptyPlace() throws {
        let harness = try savedHarness()
        try POSIXFileSystem().rename(
            harness.directory.at("Default/\(directory)"),
            to: harness.directory.at("\(storage)/\(InterruptedCommands.repairStagingPrefix){SyntheticIdentifier}"))
        try harness.relaunch()
        #expect(harness.window.tabs.count == 2)
        #expect(harness.directory.list(storage) == ["{SyntheticIdentifier}"])
    }

    @Test func anUnfinishedStagedRepairGoesAndIsNeverLoaded() throws {
        let harness = try savedHarness()
        let staged = "\(storage)/\(InterruptedCommands.repairStagingPrefix){SyntheticIdentifier}"
        try POSIXFileSystem().mkdir(harness.directory.at(staged), mode: 0o700)
        try harness.relaunch()
        #expect(harness.window.tabs.count == 2)
        #expect(!harness.directory.exists(staged))
        #expect(harness.service.launchReport.restored.map(\.key.id) == [Session.syntheticIdentifier])
    }

    @Test func aCommandRunningOnTheProfileIsLeftAlone() throws {
        let harness = try savedHarness()
        let staged = "\(storage)/\(InterruptedCommands.repairStagingPrefix){SyntheticIdentifier}"
        try POSIXFileSystem().mkdir(harness.directory.at(staged), mode: 0o700)
        let lock = try ProfileLock.acquire(profile: harness.profile)
        try harness.relaunch()
        #expect(harness.directory.exists(staged), "a running command's staging is not the launch's to settle")
        #expect(harness.service.launchReport.restored.map(\.key.id) == [Session.syntheticIdentifier])
        withExtendedLifetime(lock) {}
    }
}
