import FileSystemKit
import Foundation
import SessionFormats
import SessionModel
import SessionStore
import Synchronization

@testable import ChromeIOS
@testable import SessionForensics

/// Legacy profiles made by code for the migration tests, and what a migration must keep.
enum MigrationTestSupport {
    static let window = "B7C8D9E0-0000-4000-8000-000000000001"

    /// A copy of the repository's healthy fixture profile (optimized format), removed by the caller.
    static func copyOfHealthyProfile() throws -> String {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-\(UUID().uuidString)").path
        try FileManager.default.copyItem(atPath: repository.appendingPathComponent("Fixtures/profiles/healthy").path, toPath: profile)
        return profile
    }

    static func item(_ url: String, _ title: String, _ seconds: Int64, agent: UserAgent = .mobile) -> NavigationItem {
        NavigationItem(
            url: url, title: title, timestamp: Timestamp(microseconds: 13_408_173_600_000_000 + seconds * 1_000_000), userAgent: agent)
    }

    static func time(_ seconds: Int64) -> Timestamp { Timestamp(microseconds: 13_408_173_000_000_000 + seconds * 1_000_000) }

    /// The regular window: pinned tabs, an opener, a group, headers, a referrer, a certificate.
    static func mainWindow() -> LegacyWindow {
        var second = item("https://b.example/2", "B two", 20)
        second.referrer = Referrer(url: "https://b.example/1", policy: .default)
        second.headers = [HTTPHeader(name: "X-Requested-With", value: "app")]
        return LegacyWindow(
            selectedIndex: 2,
            tabs: [
                LegacyTab(
                    uniqueIdentifier: 1, stableIdentifier: "00000000-0000-4000-8000-000000000001", lastCommittedItemIndex: 0,
                    items: [item("https://a.example/", "A", 10)], userAgentKey: "AUTOMATIC", creationTime: time(1), lastActiveTime: time(5),
                    certificates: [CertificateRecord(certificate: [0x30, 0x03, 0x02, 0x01, 0x01], host: "a.example", status: 4)],
                    pinned: true),
                LegacyTab(
                    uniqueIdentifier: 2, stableIdentifier: "00000000-0000-4000-8000-000000000002", lastCommittedItemIndex: 1,
                    items: [item("https://b.example/1", "B one", 15), second], userAgentKey: "MOBILE",
                    creationTime: time(2), lastActiveTime: time(25)),
                LegacyTab(
                    uniqueIdentifier: 3, stableIdentifier: "00000000-0000-4000-8000-000000000003", openedByDOM: true,
                    lastCommittedItemIndex: 0,
                    items: [item("https://c.example/", "C", 30)], userAgentKey: "AUTOMATIC", creationTime: time(3),
                    lastActiveTime: time(31),
                    opener: Opener(index: 1, navigationIndex: 1)),
                LegacyTab(
                    uniqueIdentifier: 40, stableIdentifier: "00000000-0000-4000-8000-000000000028", lastCommittedItemIndex: 1,
                    items: [item("https://d.example/", "D", 40, agent: .desktop), item("https://d.example/x", "D x", 41, agent: .desktop)],
                    userAgentKey: "DESKTOP", creationTime: time(4), lastActiveTime: time(42))
            ],
            groups: [
                TabGroup(
                    start: 2, count: 2, title: "Work", color: TabGroupColor(rawValue: 4), collapsed: true,
                    id: TabGroupID(high: 0x1234, low: 0xABCD))
            ])
    }

    /// An inactive window whose tab was last active when it was created. (A NSNotFound selection or
    /// a missing last-active time would not survive: Chrome's reader selects tab 0 and raises the time.)
    static func inactiveWindow() -> LegacyWindow {
        LegacyWindow(
            selectedIndex: 0,
            tabs: [
                LegacyTab(
                    uniqueIdentifier: 20, stableIdentifier: "00000000-0000-4000-8000-000000000014", lastCommittedItemIndex: 0,
                    items: [item("https://mail.example/", "Inbox", 50)], userAgentKey: "AUTOMATIC", creationTime: time(6),
                    lastActiveTime: time(6))
            ])
    }

    static func incognitoWindow() -> LegacyWindow {
        LegacyWindow(
            selectedIndex: 0,
            tabs: [
                LegacyTab(
                    uniqueIdentifier: 30, lastCommittedItemIndex: 0, items: [item("https://private.example/", "P", 60)],
                    userAgentKey: "AUTOMATIC", creationTime: time(7), lastActiveTime: time(61))
            ])
    }

    /// A legacy profile on disk: two regular windows, one incognito, and a Web_Sessions state file.
    static func makeLegacyProfile() throws -> String {
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-\(UUID().uuidString)").path
        func write(_ window: LegacyWindow, _ relative: String) throws {
            let file = "\(profile)/\(relative)"
            try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(LegacySessionCodec.encode(window)).write(to: URL(fileURLWithPath: file))
        }
        try write(mainWindow(), "Sessions/\(window)/session.plist")
        try write(inactiveWindow(), "Sessions/\(window)-Inactive/session.plist")
        try write(incognitoWindow(), "OTR/Sessions/\(window)/session.plist")
        try FileManager.default.createDirectory(atPath: "\(profile)/Web_Sessions", withIntermediateDirectories: true)
        try Data("web state of tab 2".utf8).write(to: URL(fileURLWithPath: "\(profile)/Web_Sessions/00000002"))
        return profile
    }

    /// A small legacy profile (a regular window of two tabs with a web state file, an incognito
    /// window of one), for tests that run a migration many times.
    static func makeSmallLegacyProfile() throws -> String {
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-\(UUID().uuidString)").path
        var main = mainWindow()
        main.tabs = Array(main.tabs.prefix(2))
        main.groups = []
        main.selectedIndex = 1
        for (relative, window) in [("Sessions/\(window)", main), ("OTR/Sessions/\(window)", incognitoWindow())] {
            try FileManager.default.createDirectory(atPath: "\(profile)/\(relative)", withIntermediateDirectories: true)
            try Data(LegacySessionCodec.encode(window)).write(to: URL(fileURLWithPath: "\(profile)/\(relative)/session.plist"))
        }
        try FileManager.default.createDirectory(atPath: "\(profile)/Web_Sessions", withIntermediateDirectories: true)
        try Data("web state of tab 2".utf8).write(to: URL(fileURLWithPath: "\(profile)/Web_Sessions/00000002"))
        return profile
    }

    /// The small legacy profile's sessions written in the optimized format.
    static func makeSmallOptimizedProfile() throws -> String {
        let profile = try makeSmallLegacyProfile()
        let migrator = MigrationTestSupport.migrator(profile)
        _ = try migrator.apply(migrator.plan(to: .optimized))
        try FileManager.default.removeItem(atPath: "\(profile)/Backups")
        try FileManager.default.removeItem(atPath: "\(profile)/OTR/Backups")
        return profile
    }

    /// The live sessions of a profile with their histories, as Chrome would load them.
    static func liveSessions(_ profile: String) throws -> [Session] {
        try SessionReader(input: InputOpener.open(profile)).readAll(history: true)
    }

    /// Sessions with what differs between the formats by design left out: the format, the legacy
    /// stable identifiers, and unknown fields.
    /// Sessions as Chrome's legacy reader gives them back once written as session.plist files: a
    /// window with tabs and no active tab selects tab 0, and a last-active time before the creation
    /// time (a missing one included) becomes the creation time.
    static func asReadFromLegacy(_ sessions: [Session]) -> [Session] {
        sessions.map { session in
            var session = session
            if session.activeIndex == -1, !session.tabs.isEmpty { session.activeIndex = 0 }
            for index in session.tabs.indices where session.tabs[index].lastActiveTime < session.tabs[index].creationTime {
                session.tabs[index].lastActiveTime = session.tabs[index].creationTime
            }
            return session
        }
    }

    static func comparable(_ sessions: [Session]) -> [Session] {
        sessions.map { session in
            var session = session
            session.format = .optimized
            session.unknownFields = []
            session.tabs = session.tabs.map { tab in
                var tab = tab
                tab.stableIdentifier = nil
                tab.unknownFields = []
                tab.metadataUnknownFields = []
                return tab
            }
            return session
        }
    }

    static func migrator(_ profile: String, fileSystem: any FileSystem = POSIXFileSystem()) -> Migrator {
        Migrator(
            profile: profile, writer: AtomicWriter(fileSystem: fileSystem), toolVersion: "test", clock: AsideTestSupport.clock(),
            newGroupID: { TabGroupID(high: 7, low: 7) })
    }

    /// Findings that are errors or warnings.
    static func problems(_ profile: String) throws -> [String] {
        try Validator().validate(InputOpener.open(profile)).findings.filter { $0.severity != .info }.map {
            "\($0.rule.name): \($0.message)"
        }
    }
}

/// The real file system, stopping like a killed process at the `stopAt`-th changing operation
/// (that one and every later one fail). fsync is counted but not performed: after a process
/// crash the file system shows every completed operation, synced or not, so syncing would only
/// make the tests slow.
final class ProcessCrashFileSystem: FileSystem {
    let base = POSIXFileSystem()
    let stopAt: Int
    private let count = Synchronization.Atomic<Int>(0)

    init(stopAt: Int = .max) { self.stopAt = stopAt }

    private func step(_ name: String, _ path: String) throws(FileSystemError) {
        if count.add(1, ordering: .relaxed).newValue >= stopAt {
            throw .io(operation: name, path: path, code: 5, reason: "process stopped")
        }
    }

    func createExclusive(_ path: String, mode: UInt32) throws(FileSystemError) -> FileHandleID {
        try step("open", path)
        return try base.createExclusive(path, mode: mode)
    }
    func write(_ handle: FileHandleID, _ bytes: ArraySlice<UInt8>) throws(FileSystemError) -> Int {
        try step("write", "fd")
        return try base.write(handle, bytes)
    }
    func fsync(_ handle: FileHandleID) throws(FileSystemError) { try step("fsync", "fd") }
    func close(_ handle: FileHandleID) throws(FileSystemError) { try base.close(handle) }
    func rename(_ source: String, to destination: String) throws(FileSystemError) {
        try step("rename", source)
        try base.rename(source, to: destination)
    }
    func fsyncDirectory(_ path: String) throws(FileSystemError) { try step("fsync directory", path) }
    func link(_ source: String, to destination: String) throws(FileSystemError) {
        try step("link", source)
        try base.link(source, to: destination)
    }
    func unlink(_ path: String) throws(FileSystemError) {
        try step("unlink", path)
        try base.unlink(path)
    }
    func mkdir(_ path: String, mode: UInt32) throws(FileSystemError) {
        try step("mkdir", path)
        try base.mkdir(path, mode: mode)
    }
    func rmdir(_ path: String) throws(FileSystemError) {
        try step("rmdir", path)
        try base.rmdir(path)
    }
    func read(_ path: String, limit: Int) throws(FileSystemError) -> [UInt8] { try base.read(path, limit: limit) }
    func size(of path: String) -> Int? { base.size(of: path) }
    func resolvedKind(of path: String) -> FileKind? { base.resolvedKind(of: path) }
    func lockDirectory(_ path: String) throws(FileSystemError) -> DirectoryLock { try base.lockDirectory(path) }
    func list(_ path: String) throws(FileSystemError) -> [String] { try base.list(path) }
    func kind(of path: String) -> FileKind? { base.kind(of: path) }
    func permissions(of path: String) -> UInt32? { base.permissions(of: path) }
}
