import FileSystemKit
import SessionFormats
import SessionModel
import SessionStore
import TestSupport
import Testing

@testable import CrashSimulator

/// Each oracle on its own, on trees written by the store's ProfileWriter.
@Suite struct OracleTests {
    init() { Browsers.install() }

    static let profile = "/profile"

    static func session(_ ids: [TabID], title: String = "Page") -> Session {
        let tabs = ids.map { id in
            let item = NavigationItem(
                url: "https://example.org/\(id)", title: "\(title) \(id)", timestamp: Timestamp(unixMicroseconds: 1_700_000_000_000_000))
            return Tab.summarising(TabHistory(lastCommittedIndex: 0, items: [item]), id: id)
        }
        return Session(id: Session.syntheticIdentifier, activeIndex: 0, tabs: tabs)
    }

    /// A tree with a profile, the system writing it, and a version index with one version per saved session.
    struct Fixture {
        let tree = ModelTree()
        let system: ModelFileSystem
        var versions = VersionIndex()

        init(saving sessions: [Session]) throws {
            system = ModelFileSystem(tree: tree)
            try system.mkdir(OracleTests.profile, mode: 0o755)
            for name in [
                ProfileLayout.optimizedDirectory, ProfileLayout.incognitoDirectory, ProfileLayout.backupsDirectory,
                ProfileLayout.metadataFile, ProfileLayout.tabDataFile
            ] { _ = tree.names.intern(name) }
            record()
            for session in sessions {
                try ProfileWriter(writer: AtomicWriter(fileSystem: system)).write(session, profile: OracleTests.profile)
                record()
            }
        }

        var scan: ProfileScan {
            ProfileScan(tree: tree, profile: system.resolve(OracleTests.profile), names: ProfileNames(tree.names), collectFiles: true)
        }

        var loads: [SessionLoad] { scan.sessions.map { SessionLoader.compute($0, tree: tree) } }

        /// The durability floor of the tree as it is.
        var floor: DurabilityOracle.Floor {
            let scan = scan
            let asideLoads = scan.backups.map { entry in entry.contents.map { SessionLoader.compute($0, tree: tree) } }
            return DurabilityOracle.floor(scan, loads: loads, asideLoads: asideLoads, versions: versions, names: tree.names)
        }

        mutating func record() {
            let names = tree.names
            versions.record(scan, names: names) { SessionPaths.directory($0, names) }
        }

        func path(_ relative: String) -> String { joinPath(OracleTests.profile, relative) }
        var metadata: String { path("SessionStorage/{SyntheticIdentifier}/session_metadata.pb") }
    }

    @Test func atomicityAcceptsWhatASaveWroteAndNothingElse() throws {
        let fixture = try Fixture(saving: [Self.session([1, 2]), Self.session([1, 2, 3])])
        #expect(AtomicityOracle.check(fixture.scan, loads: fixture.loads, versions: fixture.versions, names: fixture.tree.names).isEmpty)
        let bytes = try fixture.system.read(fixture.metadata)
        try AtomicWriter(fileSystem: fixture.system).write(Array(bytes.prefix(bytes.count - 20)), to: fixture.metadata)
        let findings = AtomicityOracle.check(fixture.scan, loads: fixture.loads, versions: fixture.versions, names: fixture.tree.names)
        #expect(findings.map(\.oracle) == [.atomicity])
        #expect(findings.first?.message.contains("bytes that no save wrote") == true)
    }

    @Test func atomicityRefusesDataOlderThanTheListNamingIt() throws {
        var fixture = try Fixture(saving: [Self.session([1, 2])])
        let dataPath = fixture.path("SessionStorage/{SyntheticIdentifier}/00000001/data.pb")
        let old = try fixture.system.read(dataPath)
        try ProfileWriter(writer: AtomicWriter(fileSystem: fixture.system)).write(
            Self.session([1, 2], title: "Newer"), profile: Self.profile)
        fixture.record()
        try AtomicWriter(fileSystem: fixture.system).write(old, to: dataPath)
        let findings = AtomicityOracle.check(fixture.scan, loads: fixture.loads, versions: fixture.versions, names: fixture.tree.names)
        #expect(findings.contains { $0.message.contains("tab 1") && $0.message.contains("older than the list") })
    }

    @Test func durabilityFloorIsTheOldestPartOfTheRestoredState() throws {
        let fixture = try Fixture(saving: [Self.session([1, 2]), Self.session([1, 2, 3])])
        // Versions: 0 empty, 1 first save, 2 second save.
        #expect(fixture.floor.version == 2)
        let verdict = StateVerdict(
            findings: [], floor: DurabilityOracle.Floor(version: 1, detail: "x is older"), privacyFound: 0,
            privacyDetails: [:], detectedCrash: true, recoveryCrashes: [])
        var context = CrashContext(requiredVersion: 2, acknowledgement: "save #2", privacyGroups: 0, appWasRunning: false)
        #expect(verdict.findings(in: context).map(\.oracle) == [.durability])
        context.requiredVersion = 1
        #expect(verdict.findings(in: context).isEmpty)
        try fixture.system.unlink(fixture.metadata)
        #expect(fixture.floor.version == 0, "without its list the session is as before the first save")
    }

    @Test func aSetAsideEntryStandsForItsSessionOnlyWithItsTabsData() throws {
        var fixture = try Fixture(saving: [Self.session([1, 2]), Self.session([1, 2, 3])])
        let entry = try SessionSetAside(writer: AtomicWriter(fileSystem: fixture.system), profile: Self.profile)
            .push(
                SessionKey(id: Session.syntheticIdentifier, incognito: false), reason: "test",
                time: Timestamp(unixMicroseconds: 1_800_000_000_000_000), method: .linkCopy)
        #expect(fixture.system.kind(of: fixture.metadata) == nil, "the live session is gone")
        #expect(fixture.floor.version == 2, "set aside whole, the session is as the second save left it")
        fixture.record()
        #expect(fixture.floor.version == 3, "and as every later version holds it, set aside")
        try fixture.system.unlink(fixture.path(joinPath(entry.path, "00000003", ProfileLayout.tabDataFile)))
        let floor = fixture.floor
        #expect(floor.version == 1, "the entry keeps the second save's list but not its third tab's data")
        #expect(floor.detail.contains("or without a tab's data as it was"), "\(floor.detail)")
    }

    @Test func collateralLossSeesTabsChromeWouldLose() throws {
        let fixture = try Fixture(saving: [Self.session([1, 2, 3])])
        #expect(CollateralLossOracle.check(fixture.scan, loads: fixture.loads, names: fixture.tree.names).isEmpty)
        try fixture.system.unlink(fixture.path("SessionStorage/{SyntheticIdentifier}/00000002/data.pb"))
        let missing = CollateralLossOracle.check(fixture.scan, loads: fixture.loads, names: fixture.tree.names)
        #expect(
            missing.map(\.message) == [
                "SessionStorage/{SyntheticIdentifier}: tab 2 is listed but its data.pb is missing: Chrome restores it empty and loses it at the next save"
            ])
        try fixture.system.unlink(fixture.metadata)
        let lost = CollateralLossOracle.check(fixture.scan, loads: fixture.loads, names: fixture.tree.names)
        #expect(lost.first?.message.contains("Chrome would load the window empty and delete its 3 tab directories") == true)
    }

    @Test func privacyCountsOnlyAcknowledgedCloses() throws {
        var index = PrivacyIndex()
        let group = index.addGroup(closing: ["https://secret.example/diary", "short"], keeping: ["https://public.example/"])
        #expect(group == 0)
        let kept = index.addGroup(closing: ["https://kept.example/x"], keeping: ["see https://kept.example/x here"])
        #expect(kept == nil, "a string a regular tab also holds is no evidence")
        let fixture = try Fixture(saving: [])
        try AtomicWriter(fileSystem: fixture.system).write(Array("…https://secret.example/diary…".utf8), to: fixture.path("leak"))
        let found = PrivacyOracle.groupsFound(in: fixture.scan.files, index: index)
        #expect(found == 1)
        #expect(PrivacyOracle.check(found: found, acknowledged: 0, detail: { _ in "" }) == nil)
        #expect(PrivacyOracle.check(found: found, acknowledged: 1, detail: { _ in "leak holds it" })?.oracle == .privacy)
    }

    @Test func hygieneFindsLeftoverTemporaryFilesAndBackups() throws {
        let fixture = try Fixture(saving: [Self.session([1])])
        let profile = fixture.system.resolve(Self.profile)
        #expect(HygieneOracle.check(fixture.scan, tree: fixture.tree, profile: profile).isEmpty)
        try fixture.system.link(
            fixture.metadata, to: fixture.path("SessionStorage/{SyntheticIdentifier}/" + AtomicWriter.backupName(of: "session_metadata.pb"))
        )
        let findings = HygieneOracle.check(fixture.scan, tree: fixture.tree, profile: profile)
        #expect(
            findings.map(\.message) == [
                "SessionStorage/{SyntheticIdentifier}/.sessionctl-old.session_metadata.pb is left over after recovery"
            ])
    }

    /// Hygiene is judged by Chrome's layout, not by the store's idea of its temporary names: a
    /// leftover under any other name is found too, and nothing inside Backups/ is judged.
    @Test func hygieneFindsWhatTheLayoutHasNoPlaceFor() throws {
        let fixture = try Fixture(saving: [Self.session([1])])
        let profile = fixture.system.resolve(Self.profile)
        try AtomicWriter(fileSystem: fixture.system).makeDirectories(fixture.path("Backups/{SyntheticIdentifier}/20261123T000000.000000Z"))
        try AtomicWriter(fileSystem: fixture.system).write(
            [1, 2], to: fixture.path("Backups/{SyntheticIdentifier}/20261123T000000.000000Z/notes.txt"))
        try AtomicWriter(fileSystem: fixture.system).write([1], to: fixture.path(RecoveryMarker.fileName))
        #expect(
            HygieneOracle.check(fixture.scan, tree: fixture.tree, profile: profile).isEmpty,
            "set-aside copies and the recovery marker belong")
        try AtomicWriter(fileSystem: fixture.system).write(
            [1, 2, 3], to: fixture.path("SessionStorage/{SyntheticIdentifier}/session_metadata.pb~tmp41"))
        let findings = HygieneOracle.check(fixture.scan, tree: fixture.tree, profile: profile)
        #expect(
            findings.map(\.message) == [
                "SessionStorage/{SyntheticIdentifier}/session_metadata.pb~tmp41 is not part of Chrome's layout nor a file the store documents"
            ])
    }

    @Test func recoveryMustBeIdempotentAndNoticeCrashes() {
        let first = RecoveryOutcome(detectedCrash: true, restored: ["a": 1], changes: ["removed x"])
        #expect(
            RecoveryOracle.check(
                first: .success(first), second: .success(RecoveryOutcome(detectedCrash: true, restored: ["a": 1], changes: []))
            ).isEmpty)
        let changedAgain = RecoveryOracle.check(
            first: .success(first), second: .success(RecoveryOutcome(detectedCrash: true, restored: ["a": 1], changes: ["removed y"])))
        #expect(changedAgain.first?.message.hasPrefix("recovery is not idempotent") == true)
        let restoredOther = RecoveryOracle.check(
            first: .success(first), second: .success(RecoveryOutcome(detectedCrash: true, restored: ["a": 2], changes: [])))
        #expect(restoredOther.count == 1)
        #expect(
            RecoveryOracle.check(first: .failure(FileSystemError.locked(path: "/p")), second: nil).first?.message.hasPrefix(
                "recovery failed") == true)
        #expect(
            RecoveryOracle.checkDetection(RecoveryOutcome(detectedCrash: false, restored: [:], changes: []), expected: true)?.oracle
                == .recovery)
        #expect(RecoveryOracle.checkDetection(RecoveryOutcome(detectedCrash: false, restored: [:], changes: []), expected: false) == nil)
    }

    /// A session Chrome would load may leave the live profile only when the crash-loop guard, by
    /// the marker on disk, must set every session aside; one Chrome refuses may go.
    @Test func liveSessionsKeepsWhatChromeWouldLoadUnlessTheGuardMustTrigger() throws {
        let fixture = try Fixture(saving: [OracleTests.session([1, 2])])
        let directory = ProfileLayout.sessionDirectory(Session.syntheticIdentifier, incognito: false)
        let policy = RecoveryPolicy(writer: AtomicWriter(fileSystem: fixture.system), profile: OracleTests.profile)
        try policy.recordRunning()
        let findings = LiveSessionOracle.check(delisted: [directory], before: fixture.tree, profile: OracleTests.profile)
        #expect(findings.map(\.oracle) == [.liveSessions])
        #expect(findings.first?.message.contains("though Chrome would load it (2 tabs)") == true)
        try policy.writeMarker(RecoveryMarker(state: .restoring, restoreCrashes: 1))
        #expect(LiveSessionOracle.check(delisted: [directory], before: fixture.tree, profile: OracleTests.profile).isEmpty)
        try policy.writeMarker(RecoveryMarker(state: .restoring, restoreCrashes: 0))
        #expect(LiveSessionOracle.check(delisted: [directory], before: fixture.tree, profile: OracleTests.profile).count == 1)
        try AtomicWriter(fileSystem: fixture.system).write([0xff, 0x01], to: fixture.path(joinPath(directory, ProfileLayout.metadataFile)))
        #expect(LiveSessionOracle.check(delisted: [directory], before: fixture.tree, profile: OracleTests.profile).isEmpty)
    }
}
