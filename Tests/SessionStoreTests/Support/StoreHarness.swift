import FileSystemKit
import SessionFormats
import SessionModel

@testable import SessionStore

/// A profile in a temporary directory, a recording file system, a virtual clock, and the saves
/// the service reported.
final class StoreHarness {
    let directory: TemporaryDirectory
    let fileSystem = RecordingFileSystem()
    let clock = VirtualClock()
    var service: SessionService
    var records: [SaveRecord] = []
    var failures: [SaveFailure] = []
    private var nextGroup: UInt64 = 0

    var profile: String { directory.at("Default") }

    init(options: SessionService.Options = .init()) throws {
        directory = try TemporaryDirectory()
        service = try StoreHarness.launch(directory.at("Default"), fileSystem, clock, options)
        window = try service.openWindow()
        attach()
    }

    deinit { directory.remove() }

    private static func launch(
        _ path: String, _ fileSystem: RecordingFileSystem, _ clock: VirtualClock,
        _ options: SessionService.Options
    ) throws -> SessionService {
        var counter: UInt64 = 0
        return try SessionService.launch(
            profile: path, fileSystem: fileSystem, clock: clock, options: options,
            groupIDs: {
                counter += 1
                return TabGroupID(high: 0xA, low: counter)
            })
    }

    private func attach() {
        service.onSave = { [unowned self] in records.append($0) }
        service.onSaveFailure = { [unowned self] in failures.append($0) }
    }

    /// Launches a new service on the same profile, as after the app was killed (no clean exit).
    func relaunch(options: SessionService.Options = .init()) throws {
        service = try StoreHarness.launch(profile, fileSystem, clock, options)
        window = try service.openWindow()
        attach()
    }

    /// The main window (opened, or restored, by `init` and `relaunch`).
    private(set) var window: Browser

    /// Reads the session of a window from disk as Chrome would load it.
    func loadFromDisk(_ id: SessionID = Session.syntheticIdentifier, incognito: Bool = false) -> ChromeLoadSemantics.Outcome {
        SessionDirectoryLoader(fileSystem: POSIXFileSystem(), profile: profile).load(SessionKey(id: id, incognito: incognito))
    }

    /// The URLs of a session on disk, in order.
    func urlsOnDisk(_ id: SessionID = Session.syntheticIdentifier, incognito: Bool = false) -> [String] {
        loadFromDisk(id, incognito: incognito).session?.tabs.map(\.url) ?? []
    }

    /// Calls that changed the disk (everything recorded).
    var writes: [RecordingFileSystem.Call] { fileSystem.calls }
}
