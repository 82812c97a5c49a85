import FileSystemKit
import SessionFormats
import SessionModel
import Synchronization
import TestSupport
import Testing

@testable import SessionStore

/// What the launch settles for other tools is given to it (`LaunchSettling`): without any, it
/// settles only its own interrupted writes and never restores a name of work in progress as a
/// session; with some, it runs them after its own steps and before reading a session, under the
/// profile's lock, and not at all while another holder has the lock.
@Suite struct LaunchSettlingTests {
    init() { Browsers.install() }

    /// A directory a tool stages a window under, beside its live place.
    private static let staged = "Default/SessionStorage/\(AtomicWriter.reservedPrefix)tool.{SyntheticIdentifier}"

    /// A settling step that puts the staged window into its place, and records that it ran and
    /// whether the profile was locked while it did.
    private final class PutStagedInPlace: LaunchSettling {
        let runs = Mutex<[Bool]>([])

        func settle(profile: String, writer: AtomicWriter) throws(FileSystemError) -> [String] {
            let locked = (try? writer.fileSystem.lockDirectory(profile)) == nil
            runs.withLock { $0.append(locked) }
            let live = joinPath(profile, "SessionStorage/{SyntheticIdentifier}")
            let staged = joinPath(profile, "SessionStorage/\(AtomicWriter.reservedPrefix)tool.{SyntheticIdentifier}")
            guard writer.fileSystem.kind(of: staged) == .directory else { return [] }
            try writer.move(staged, to: live)
            return ["put the staged window in place"]
        }
    }

    /// A harness whose window of two tabs is saved, then moved to the staged name.
    private func stagedWindow() throws -> StoreHarness {
        let harness = try StoreHarness()
        for name in ["a", "b"] { harness.window.openTab(url: "https://\(name).example/") }
        harness.service.saveNow()
        try POSIXFileSystem().rename(
            harness.directory.at("Default/SessionStorage/{SyntheticIdentifier}"), to: harness.directory.at(Self.staged))
        return harness
    }

    @Test func withoutSettlingAStagedWindowIsLeftAloneAndNeverLoaded() throws {
        let harness = try stagedWindow()
        try harness.relaunch()
        #expect(harness.directory.exists(Self.staged))
        #expect(harness.service.launchReport.restored.isEmpty)
        #expect(harness.service.launchReport.settledCommands.isEmpty)
        #expect(harness.window.tabs.count == 0)
    }

    @Test func aSettlingStepRunsUnderTheLockBeforeSessionsAreRead() throws {
        let harness = try stagedWindow()
        let step = PutStagedInPlace()
        try harness.relaunch(options: .init(settling: [step]))
        #expect(step.runs.withLock { $0 } == [true], "ran once, with the profile locked")
        #expect(harness.service.launchReport.settledCommands == ["put the staged window in place"])
        #expect(harness.window.tabs.count == 2)
        #expect(!harness.directory.exists(Self.staged))
    }

    @Test func aSettlingStepDoesNotRunWhileAnotherHolderHasTheLock() throws {
        let harness = try stagedWindow()
        let step = PutStagedInPlace()
        let lock = try ProfileLock.acquire(profile: harness.profile)
        try harness.relaunch(options: .init(settling: [step]))
        #expect(step.runs.withLock { $0 }.isEmpty)
        #expect(harness.directory.exists(Self.staged))
        #expect(harness.service.launchReport.restored.isEmpty)
        withExtendedLifetime(lock) {}
    }
}
