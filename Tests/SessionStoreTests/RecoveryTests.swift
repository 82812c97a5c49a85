import Archive
import FileSystemKit
import SessionFormats
import SessionModel
import TestSupport
import Testing

@testable import SessionStore

/// The recovery policy at launch: exit detection, set-aside of sessions Chrome would lose,
/// crash-loop guard, leftover temp files, interrupted set-asides, and never deleting anything.
@Suite struct RecoveryTests {
    init() { Browsers.install() }

    private let session = "Default/SessionStorage/{SyntheticIdentifier}"

    private func savedHarness() throws -> StoreHarness {
        let harness = try StoreHarness()
        for name in ["a", "b"] { harness.window.openTab(url: "https://\(name).example/") }
        harness.service.saveNow()
        return harness
    }

    /// Every file's content under the profile, by SHA-256 (paths ignored: set-aside moves them).
    private func contents(_ harness: StoreHarness) -> [String] {
        harness.directory.allFiles()
            .filter { !$0.hasSuffix(RecoveryMarker.fileName) && !$0.hasSuffix(SessionSetAside.manifestFile) }
            .map { SHA256.hex(SHA256.hash(harness.directory.bytes($0))) }.sorted()
    }

    /// A marker reads back as written; text with a carriage return or a combining mark reads as
    /// its characters say (a line break of "\r\n" is one character, an `=` joined by a mark is
    /// no `=`), as plain ASCII does.
    @Test func theMarkerParsesByCharacters() {
        for marker in [RecoveryMarker(state: .running), RecoveryMarker(state: .restoring, restoreCrashes: 3), RecoveryMarker(state: .clean)]
        {
            #expect(RecoveryMarker(bytes: marker.encoded) == marker)
        }
        let cases: [(String, RecoveryMarker?)] = [
            ("sessionctl-recovery/1\nstate=clean\nrestore-crashes=2\n", RecoveryMarker(state: .clean, restoreCrashes: 2)),
            ("sessionctl-recovery/1\n\nrestore-crashes=2\nextra=x=y\nstate=running", RecoveryMarker(state: .running, restoreCrashes: 2)),
            ("sessionctl-recovery/1\nstate=clean\nrestore-crashes=-1\n", nil),
            ("sessionctl-recovery/1\nstate=clean\nno value\nrestore-crashes=0\n", nil),
            ("sessionctl-recovery/2\nstate=clean\nrestore-crashes=0\n", nil),
            // "\r\n" does not end the line: the next key is part of this value.
            ("sessionctl-recovery/1\nx=1\r\nstate=clean\nrestore-crashes=0\n", nil),
            ("sessionctl-recovery/1\nstate=clean\nrestore-crashes=0\nnote=caf\u{E9}\n", RecoveryMarker(state: .clean)),
            // An `=` with a combining mark after it is no `=`.
            ("sessionctl-recovery/1\nstate=clean\nrestore-crashes=0\nnote=\u{301}x\n", nil)
        ]
        for (text, expected) in cases {
            #expect(RecoveryMarker(bytes: Array(text.utf8)) == expected, "\(text.debugDescription)")
        }
    }

    @Test func theMarkerTellsHowThePreviousRunEnded() throws {
        let harness = try savedHarness()
        #expect(harness.service.launchReport.previousExit == .unknown)
        try harness.relaunch()
        #expect(harness.service.launchReport.previousExit == .unclean)
        try harness.service.shutDown()
        try harness.relaunch()
        #expect(harness.service.launchReport.previousExit == .clean)
        #expect(harness.window.tabs.count == 2)
        #expect(!harness.directory.list(session).contains(RecoveryMarker.fileName), "the marker is kept outside SessionStorage/<id>/")
        #expect(harness.directory.list("Default").contains(RecoveryMarker.fileName))
    }

    @Test func aSessionChromeWouldLoseIsSetAsideWithAManifestNotLoadedEmpty() throws {
        let harness = try savedHarness()
        try AtomicWriter().write([0x0a, 0x7f, 0x01], to: harness.directory.at(session + "/session_metadata.pb"))
        let before = contents(harness)
        try harness.relaunch()
        let report = harness.service.launchReport
        #expect(report.restored.isEmpty)
        let entry = try #require(report.setAside.first)
        #expect(entry.path == "Backups/{SyntheticIdentifier}/\(entry.stamp)")
        #expect(entry.stamp == SessionSetAside.stamp(for: harness.clock.now))
        #expect(!harness.directory.exists(session))
        #expect(harness.window.tabs.count == 0)
        #expect(contents(harness) == before, "nothing is deleted: every byte is in the set-aside entry")
        let manifest = try JSONParser.parse(harness.directory.bytes("Default/\(entry.path)/manifest.json"), file: "manifest")
        #expect(manifest["reason"] == .string(entry.reason))
        #expect(manifest["originalPath"] == .string("SessionStorage/{SyntheticIdentifier}"))
        guard case .array(let files)? = manifest["files"] else {
            Issue.record("no files in the manifest")
            return
        }
        #expect(files.count == 3)
        let metadata = try #require(files.first { $0["path"] == .string("session_metadata.pb") })
        #expect(metadata["sha256"] == .string(SHA256.hex(SHA256.hash([0x0a, 0x7f, 0x01]))))
        #expect(metadata["size"] == .int(3))
        // The next save writes a fresh session; the entry stays.
        harness.window.openTab(url: "https://new.example/")
        harness.service.saveNow()
        #expect(harness.urlsOnDisk() == ["https://new.example/"])
        #expect(harness.directory.exists("Default/\(entry.path)/session_metadata.pb"))
    }

    @Test func consecutiveCrashesDuringRestoreTriggerTheCrashLoopGuard() throws {
        let harness = try savedHarness()
        let policy = RecoveryPolicy(writer: AtomicWriter(), profile: harness.profile)
        try policy.writeMarker(RecoveryMarker(state: .restoring, restoreCrashes: 0))
        try harness.relaunch()
        #expect(harness.service.launchReport.previousExit == .crashDuringRestore)
        #expect(harness.service.launchReport.consecutiveRestoreCrashes == 1)
        #expect(harness.window.tabs.count == 2, "one crash: still restored")

        try policy.writeMarker(RecoveryMarker(state: .restoring, restoreCrashes: 1))
        try harness.relaunch()
        let report = harness.service.launchReport
        #expect(report.crashLoopGuardTriggered)
        #expect(report.setAside.count == 1)
        #expect(harness.window.tabs.count == 0)
        #expect(policy.readMarker() == RecoveryMarker(state: .running))
        try harness.relaunch()
        #expect(!harness.service.launchReport.crashLoopGuardTriggered)
    }

    @Test func theCrashLoopLimitIsConfigurable() throws {
        let harness = try savedHarness()
        let policy = RecoveryPolicy(writer: AtomicWriter(), profile: harness.profile)
        try policy.writeMarker(RecoveryMarker(state: .restoring, restoreCrashes: 0))
        try harness.relaunch(options: .init(crashLoopLimit: 1))
        #expect(harness.service.launchReport.crashLoopGuardTriggered)
    }

    @Test func leftoverTemporaryFilesAreRemovedAndNeverLoaded() throws {
        let harness = try savedHarness()
        let tab = harness.window.tabs.tabs[0]
        let leftovers = [
            session + "/\(AtomicWriter.temporaryPrefix)session_metadata.pb.1.1",
            session + "/\(Tab.directoryName(for: tab.id))/\(AtomicWriter.temporaryPrefix)data.pb.1.2",
            "Default/\(AtomicWriter.temporaryPrefix)\(RecoveryMarker.fileName).1.3"
        ]
        for path in leftovers { try POSIXFileSystem().close(POSIXFileSystem().createExclusive(harness.directory.at(path), mode: 0o644)) }
        try harness.relaunch()
        #expect(Set(harness.service.launchReport.removedTemporaryFiles) == Set(leftovers.map { String($0.dropFirst("Default/".count)) }))
        for path in leftovers { #expect(!harness.directory.exists(path)) }
        #expect(harness.loadFromDisk().isLossless)
    }

    @Test func anInterruptedSetAsideIsCompletedByTheNextLaunch() throws {
        let harness = try savedHarness()
        let stamp = SessionSetAside.stamp(for: harness.clock.now)
        // The move happened, then the process died before the manifest was written.
        try AtomicWriter().move(harness.directory.at(session), to: harness.directory.at("Default/Backups/{SyntheticIdentifier}/\(stamp)"))
        try harness.relaunch()
        #expect(harness.service.launchReport.completedManifests == ["Backups/{SyntheticIdentifier}/\(stamp)"])
        #expect(harness.directory.exists("Default/Backups/{SyntheticIdentifier}/\(stamp)/manifest.json"))
        try harness.relaunch()
        #expect(harness.service.launchReport.completedManifests.isEmpty, "completing is done once")
    }

    @Test func recoveryIsIdempotent() throws {
        let harness = try savedHarness()
        harness.window.openTab(url: "https://c.example/", title: "c")
        harness.service.saveNow()
        try AtomicWriter().write([0xff], to: harness.directory.at(session + "/session_metadata.pb"))
        let policy = RecoveryPolicy(writer: AtomicWriter(), profile: harness.profile)
        let first = try policy.prepareLaunch(now: harness.clock.now)
        let after = harness.directory.allFiles()
        let second = try policy.prepareLaunch(now: harness.clock.now)
        #expect(first.report.setAside.count == 1)
        #expect(second.report.setAside.isEmpty)
        #expect(harness.directory.allFiles() == after, "a second run changes nothing but the marker's content")
    }

    @Test func reopeningAWindowWhoseSessionWasDamagedSetsItAsideFirst() throws {
        let harness = try savedHarness()
        harness.service.sceneDidDisconnect(harness.window)
        try AtomicWriter().write([0x0a, 0x7f, 0x01], to: harness.directory.at(session + "/session_metadata.pb"))
        let reopened = try harness.service.openWindow()
        #expect(reopened.tabs.count == 0)
        let entry = try #require(harness.service.launchReport.setAside.last)
        #expect(harness.directory.bytes("Default/\(entry.path)/session_metadata.pb") == [0x0a, 0x7f, 0x01])
        reopened.openTab(url: "https://fresh.example/")
        harness.service.saveNow()
        #expect(harness.directory.bytes("Default/\(entry.path)/session_metadata.pb") == [0x0a, 0x7f, 0x01], "never overwritten")
    }
}
