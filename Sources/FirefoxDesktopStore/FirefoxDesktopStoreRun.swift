import Archive
@_spi(CrashTesting) import CrashSimulator
import FileSystemKit
import FirefoxDesktop
import SessionFormats
import SessionModel
import SessionStore

/// One uninterrupted run of a workload on the model of Firefox desktop's session store, recorded:
/// its file operations and every write that returned, which each crash state is judged by.
public struct FirefoxDesktopStoreRun: StoreRun {
    /// The profile directory in the model file system.
    static let profile = "/profile"
    public let recording: Recording
    let saves: [FirefoxDesktopStoreDriver.Save]
    public var saveEnds: [Int] { saves.map(\.afterOperations) }

    /// Plays `workload` under `saveProtocol` on an empty profile.
    static func record(_ workload: Workload, saveProtocol: FirefoxDesktopSaveProtocol) throws(SimulatorError) -> FirefoxDesktopStoreRun {
        let (tree, fileSystem, initial) = try StoreExploration.emptyProfile([profile])
        let writer = SessionstoreWriter(fileSystem: fileSystem, profile: profile, saveProtocol: saveProtocol)
        var driver = FirefoxDesktopStoreDriver(writer: writer, operations: { fileSystem.operations.count })
        try driver.play(workload)
        let recording = StoreExploration.recording(
            workload, profile: profile, initial: initial, tree: tree, fileSystem: fileSystem,
            saves: driver.saves.map { ($0.afterOperations, $0.label) }, events: driver.events)
        return FirefoxDesktopStoreRun(recording: recording, saves: driver.saves)
    }
}
