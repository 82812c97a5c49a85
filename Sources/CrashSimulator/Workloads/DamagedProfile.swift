import FileSystemKit
import SessionFormats
import SessionModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A damaged profile a workload starts from (`from NAME` in the workload format), made by code
/// rather than read from disk, so that an installed binary has it as well as a checkout: windows
/// written as Chrome writes them (each tab's data.pb, then session_metadata.pb), then damaged as
/// the gallery profiles of the same kinds are (Fixtures/gallery/README.md).
///
/// Between them the two profiles hold one window of each kind Chrome's loading rules shorten or
/// refuse (`ChromeLoadSemantics`), so that a launch on them keeps copies and sets sessions aside.
public enum DamagedProfile: String, Sendable, CaseIterable {
    /// Three windows Chrome shortens: `main` lists a tab without navigation items (as the gallery's
    /// tab-no-history), `second` a tab repeating an earlier tab's id (tab-id-duplicate), `third` a
    /// tab without its data.pb (tab-data-missing).
    case shortenedSessions = "shortened-sessions"
    /// Three windows Chrome refuses: `main` has no session_metadata.pb beside its tab directories
    /// (metadata-missing), `second` an unparsable one (metadata-garbage), `third` one listing a
    /// tab of id 0 (tab-id-zero).
    case refusedSessions = "refused-sessions"
    /// A `sessionctl repair` cut short (`DamagedProfile+InterruptedRepair.swift`): `main` is whole,
    /// `second` (tab-no-history) and `third` (tab-data-missing) are set aside in `Backups/` and
    /// named by the repair's intent record, `second`'s repaired copy staged whole beside its empty
    /// place. The launch must finish the one and put the other back, as the command's next run would.
    case interruptedRepair = "interrupted-repair"

    /// What is wrong with one window.
    enum Damage: CaseIterable {
        /// Nothing: the window is whole.
        case intact
        /// The second tab's navigation item count is 0 in the list (its data.pb keeps its items).
        case noNavigationItems
        /// The fourth tab's id is the second tab's in the list (its own directory stays).
        case repeatedID
        /// The third tab's data.pb is gone (its directory stays, empty).
        case dataMissing
        /// session_metadata.pb is gone (the tab directories stay).
        case listMissing
        /// The first byte of session_metadata.pb is 0xff (an invalid tag).
        case listUnparsable
        /// The third tab's id is 0 in the list (its directory stays under its own id).
        case invalidID
    }

    /// The windows, by the workload's names for them, with what is wrong with each.
    var windows: [(window: String, damage: Damage)] {
        switch self {
        case .shortenedSessions: return [("main", .noNavigationItems), ("second", .repeatedID), ("third", .dataMissing)]
        case .refusedSessions: return [("main", .listMissing), ("second", .listUnparsable), ("third", .invalidID)]
        case .interruptedRepair: return [("main", .intact), ("second", .noNavigationItems), ("third", .dataMissing)]
        }
    }

    /// The tab ids of every window (those of the gallery's profiles).
    static let tabIDs: [TabID] = [5, 6, 10, 11]
    /// The time every navigation item was made at (2026-01-01).
    static let time = Timestamp(unixMicroseconds: 1_767_225_600_000_000)

    /// Writes the profile's windows under `profile` of `fileSystem` (made if missing).
    public func write(to fileSystem: any FileSystem, profile: String) throws(FileSystemError) {
        try DamagedProfile.makeDirectory(profile, on: fileSystem)
        let storage = joinPath(profile, ProfileLayout.optimizedDirectory)
        try DamagedProfile.makeDirectory(storage, on: fileSystem)
        for (window, damage) in windows {
            let session = DamagedProfile.session(window)
            try DamagedProfile.write(session, damaged: damage, at: joinPath(storage, session.id), on: fileSystem)
        }
        if self == .interruptedRepair { try DamagedProfile.interruptRepair(of: ["second", "third"], profile: profile, on: fileSystem) }
    }

    /// A healthy window of four tabs of two navigation items each, the first pinned.
    static func session(_ window: String) -> Session {
        let tabs = tabIDs.map { id in
            let items = (1...2).map { page in
                NavigationItem(
                    url: "https://\(window).example.org/tab\(id)/page\(page)", title: "\(window) tab \(id), page \(page)",
                    timestamp: time)
            }
            return Tab.summarising(TabHistory(lastCommittedIndex: 1, items: items), id: id)
        }
        return Session(id: WorkloadDriver.sessionID(of: window), activeIndex: 0, pinnedCount: 1, tabs: tabs)
    }

    /// Writes `session` into `directory` (its list last), damaged as `damage` says.
    static func write(
        _ session: Session, damaged damage: Damage, at directory: String, on fileSystem: any FileSystem
    ) throws(FileSystemError) {
        try makeDirectory(directory, on: fileSystem)
        for (index, tab) in session.tabs.enumerated() {
            let tabDirectory = joinPath(directory, Tab.directoryName(for: tab.id))
            try makeDirectory(tabDirectory, on: fileSystem)
            guard !(damage == .dataMissing && index == 2), let history = tab.history else { continue }
            try writeFile(ChromeProtoCodec.encodeTabData(history), to: joinPath(tabDirectory, ProfileLayout.tabDataFile), on: fileSystem)
        }
        var listed = session
        switch damage {
        case .noNavigationItems: listed.tabs[1].navigationItemCount = 0
        case .repeatedID: listed.tabs[3].id = listed.tabs[1].id
        case .invalidID: listed.tabs[2].id = 0
        case .intact, .dataMissing, .listMissing, .listUnparsable: break
        }
        guard damage != .listMissing else { return }
        var metadata = ChromeProtoCodec.encodeSessionMetadata(listed)
        if damage == .listUnparsable, !metadata.isEmpty { metadata[0] = 0xff }
        try writeFile(metadata, to: joinPath(directory, ProfileLayout.metadataFile), on: fileSystem)
    }

    static func makeDirectory(_ path: String, on fileSystem: any FileSystem) throws(FileSystemError) {
        guard fileSystem.kind(of: path) == nil else { return }
        try fileSystem.mkdir(path, mode: 0o755)
    }

    private static func writeFile(_ bytes: [UInt8], to path: String, on fileSystem: any FileSystem) throws(FileSystemError) {
        let handle = try fileSystem.createExclusive(path, mode: 0o644)
        var offset = 0
        while offset < bytes.count {
            let written = try fileSystem.write(handle, bytes[offset...])
            guard written > 0 else { throw .io(operation: "write", path: path, code: EIO, reason: "no progress") }
            offset += written
        }
        try fileSystem.close(handle)
    }
}
