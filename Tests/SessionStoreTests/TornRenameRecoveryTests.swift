import FileSystemKit
import SessionFormats
import SessionModel
import TestSupport
import Testing

@testable import SessionStore

/// What a power loss can leave when an unsynced rename is split into "unlink destination, unlink
/// source, link destination" (and a directory rename with it), and how the next launch repairs it.
@Suite struct TornRenameRecoveryTests {
    init() { Browsers.install() }

    private let session = "Default/SessionStorage/{SyntheticIdentifier}"

    private func savedHarness() throws -> StoreHarness {
        let harness = try StoreHarness()
        for name in ["a", "b"] { harness.window.openTab(url: "https://\(name).example/") }
        harness.service.saveNow()
        return harness
    }

    @Test func aReplacedFileIsKeptUnderItsBackupNameUntilTheRenameIsDurable() throws {
        let harness = try savedHarness()
        harness.fileSystem.reset()
        harness.window.openTab(url: "https://c.example/")
        harness.service.saveNow()
        let metadata = harness.directory.at(session + "/session_metadata.pb")
        let backup = harness.directory.at(session + "/" + AtomicWriter.backupName(of: "session_metadata.pb"))
        let calls = harness.writes
        let link = try #require(calls.firstIndex(of: .link(metadata, backup)))
        let rename = try #require(calls.firstIndex { if case .rename(_, metadata) = $0 { return true } else { return false } })
        let unlink = try #require(calls.firstIndex(of: .unlink(backup)))
        #expect(link < rename && rename < unlink)
        #expect(calls[link + 1] == .fsyncDirectory(harness.directory.at(session)), "the backup is durable before the rename")
        #expect(calls[rename + 1] == .fsyncDirectory(harness.directory.at(session)), "the rename is durable before the backup goes")
        #expect(!harness.directory.exists(session + "/" + AtomicWriter.backupName(of: "session_metadata.pb")))
    }

    @Test func aListWhoseReplacementWasTornAwayIsPutBackFromItsBackup() throws {
        let harness = try savedHarness()
        let metadata = session + "/session_metadata.pb"
        let saved = harness.directory.bytes(metadata)
        // The power went after "unlink destination" and "unlink source": only the backup is left.
        try POSIXFileSystem().link(
            harness.directory.at(metadata), to: harness.directory.at(session + "/" + AtomicWriter.backupName(of: "session_metadata.pb")))
        try POSIXFileSystem().unlink(harness.directory.at(metadata))
        try harness.relaunch()
        #expect(harness.directory.bytes(metadata) == saved)
        #expect(harness.window.tabs.count == 2)
        #expect(harness.service.launchReport.setAside.isEmpty)
        #expect(!harness.directory.exists(session + "/" + AtomicWriter.backupName(of: "session_metadata.pb")))
    }

    /// A launch that crashed while replacing the marker, the power lost after the rename's first
    /// step: the marker is gone and only its backup says that the app was running. The crash is
    /// noticed, as it would be had the sweep put the backup back first.
    @Test func aMarkerWhoseReplacementWasTornAwayIsReadFromItsBackup() throws {
        let harness = try savedHarness()
        let marker = harness.directory.at("Default/" + RecoveryMarker.fileName)
        let backup = harness.directory.at("Default/" + AtomicWriter.backupName(of: RecoveryMarker.fileName))
        try POSIXFileSystem().link(marker, to: backup)
        try POSIXFileSystem().unlink(marker)
        let policy = RecoveryPolicy(writer: AtomicWriter(), profile: harness.profile)
        #expect(policy.readMarker() == RecoveryMarker(state: .running))
        try harness.relaunch()
        #expect(harness.service.launchReport.previousExit == .unclean)
        #expect(!harness.directory.exists("Default/" + AtomicWriter.backupName(of: RecoveryMarker.fileName)))
    }

    @Test func aStaleBackupBesideItsFileIsOnlyRemoved() throws {
        let harness = try savedHarness()
        let metadata = session + "/session_metadata.pb"
        let saved = harness.directory.bytes(metadata)
        try AtomicWriter().write([0x0a, 0x00], to: harness.directory.at(session + "/" + AtomicWriter.backupName(of: "session_metadata.pb")))
        try harness.relaunch()
        #expect(harness.directory.bytes(metadata) == saved)
        #expect(!harness.directory.exists(session + "/" + AtomicWriter.backupName(of: "session_metadata.pb")))
    }

    @Test func aSetAsideCopiesByLinksThenRemovesTheLiveDirectory() throws {
        let harness = try savedHarness()
        harness.fileSystem.reset()
        let entry = try SessionSetAside(writer: AtomicWriter(fileSystem: harness.fileSystem), profile: harness.profile)
            .push(SessionKey(id: Session.syntheticIdentifier, incognito: false), reason: "test", time: harness.clock.now, method: .linkCopy)
        let calls = harness.writes
        let renames = calls.compactMap { call -> (from: String, to: String)? in
            if case .rename(let from, let to) = call { return (from, to) } else { return nil }
        }
        #expect(
            renames.allSatisfy {
                AtomicWriter.isTemporaryName(lastPathComponent($0.from)) || AtomicWriter.isTemporaryName(lastPathComponent($0.to))
            },
            "nothing is renamed but to or from a temporary name")
        let manifest = try #require(
            calls.firstIndex { if case .rename(_, let to) = $0 { return to.hasSuffix("manifest.json") } else { return false } })
        let leaving = try #require(
            calls.firstIndex { if case .rename(let from, _) = $0 { return from == harness.directory.at(session) } else { return false } })
        let placed = try #require(
            calls.firstIndex {
                if case .rename(_, let to) = $0 { return to == harness.directory.at("Default/\(entry.path)") } else { return false }
            })
        #expect(manifest < placed && placed < leaving, "the copy takes its place whole, manifest included, before the live directory goes")
        #expect(
            calls[leaving + 1] == .fsyncDirectory(parentPath(harness.directory.at(session))), "and it leaves its place in one durable step")
        #expect(!harness.directory.exists(session))
        #expect(harness.directory.exists("Default/\(entry.path)/session_metadata.pb"))
    }

    @Test func aPartialSetAsideCopyBesideAnIntactSessionIsDropped() throws {
        let harness = try savedHarness()
        let stamp = SessionSetAside.stamp(for: harness.clock.now)
        let entry = "Default/Backups/{SyntheticIdentifier}/\(stamp)"
        try AtomicWriter().makeDirectories(harness.directory.at("Default/Backups/{SyntheticIdentifier}"))
        try AtomicWriter().linkTree(harness.directory.at(session), to: harness.directory.at(entry))
        try harness.relaunch()
        #expect(!harness.directory.exists(entry))
        #expect(harness.window.tabs.count == 2)
        #expect(harness.service.launchReport.completedManifests.count == 1)
    }

    @Test func aSetAsideCopyCutShortIsSweptByTheNextLaunch() throws {
        let harness = try savedHarness()
        let staged = "Default/Backups/{SyntheticIdentifier}/\(AtomicWriter.temporaryPrefix)\(SessionSetAside.stamp(for: harness.clock.now))"
        try AtomicWriter().makeDirectories(harness.directory.at("Default/Backups/{SyntheticIdentifier}"))
        try AtomicWriter().linkTree(harness.directory.at(session), to: harness.directory.at(staged))
        try POSIXFileSystem().unlink(harness.directory.at(staged + "/session_metadata.pb"))
        try harness.relaunch()
        #expect(!harness.directory.exists(staged))
        #expect(harness.window.tabs.count == 2)
        #expect(harness.service.launchReport.removedTemporaryFiles.contains { $0.hasSuffix(lastPathComponent(staged)) })
        #expect(harness.service.launchReport.completedManifests.isEmpty && harness.service.launchReport.setAside.isEmpty)
    }

    @Test func whatRemainsOfASetAsideSessionIsRemovedByTheNextLaunch() throws {
        let harness = try savedHarness()
        let stamp = SessionSetAside.stamp(for: harness.clock.now)
        let entry = "Default/Backups/{SyntheticIdentifier}/\(stamp)"
        try AtomicWriter().makeDirectories(harness.directory.at("Default/Backups/{SyntheticIdentifier}"))
        try AtomicWriter().linkTree(harness.directory.at(session), to: harness.directory.at(entry))
        // Complete the entry with its manifest by letting a launch find it without a live session.
        let hidden = harness.directory.at("Default/hidden")
        try POSIXFileSystem().rename(harness.directory.at(session), to: hidden)
        try harness.relaunch()
        #expect(harness.directory.exists(entry + "/manifest.json"))
        // Now the live directory is back with its list gone, as a removal interrupted after its first step.
        try POSIXFileSystem().rename(hidden, to: harness.directory.at(session))
        try POSIXFileSystem().unlink(harness.directory.at(session + "/session_metadata.pb"))
        try harness.relaunch()
        #expect(!harness.directory.exists(session))
        #expect(harness.directory.exists(entry + "/session_metadata.pb"))
        #expect(harness.service.launchReport.setAside.isEmpty, "not set aside a second time")
    }

    @Test func anInterruptedIncognitoPurgeLeavesNothingAfterTheNextLaunch() throws {
        let harness = try savedHarness()
        let doomed = "Default/\(AtomicWriter.temporaryPrefix)OTR"
        try AtomicWriter().makeDirectories(harness.directory.at(doomed + "/SessionStorage/{SyntheticIdentifier}"))
        try AtomicWriter().write(
            Array("https://secret.example/".utf8),
            to: harness.directory.at(doomed + "/SessionStorage/{SyntheticIdentifier}/session_metadata.pb"))
        try harness.relaunch()
        #expect(!harness.directory.exists(doomed))
        #expect(harness.service.launchReport.removedTemporaryFiles.contains("\(AtomicWriter.temporaryPrefix)OTR"))
    }
}
