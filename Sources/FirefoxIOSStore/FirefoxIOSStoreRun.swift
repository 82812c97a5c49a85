@_spi(CrashTesting) import CrashSimulator
import FileSystemKit
import FirefoxIOS
import SessionFormats
import SessionModel

/// One uninterrupted run of a workload on the model of Firefox for iOS's tab store, recorded: its
/// file operations and every save that returned, which each crash state is judged by.
public struct FirefoxIOSStoreRun: StoreRun {
    /// The app group container in the model file system.
    static let container = "/container"
    public let recording: Recording
    let saves: [FirefoxIOSStoreDriver.Save]
    public var saveEnds: [Int] { saves.map(\.afterOperations) }
    let windowIDs: [String]
    /// Where the profile's window files are.
    let paths: FirefoxIOSStorePaths

    /// Plays `workload` under `saveProtocol` on an empty container.
    static func record(_ workload: Workload, saveProtocol: FirefoxIOSSaveProtocol) throws(SimulatorError) -> FirefoxIOSStoreRun {
        let profile = joinPath(container, FirefoxIOSLayout.profileDirectory)
        let (tree, fileSystem, initial) = try StoreExploration.emptyProfile([container, profile])
        let writer = FirefoxIOSStoreWriter(fileSystem: fileSystem, profile: profile, saveProtocol: saveProtocol)
        var driver = FirefoxIOSStoreDriver(writer: writer, operations: { fileSystem.operations.count })
        try driver.play(workload)
        let recording = StoreExploration.recording(
            workload, profile: container, initial: initial, tree: tree, fileSystem: fileSystem,
            saves: driver.saves.map { ($0.afterOperations, $0.label) }, events: driver.events)
        return FirefoxIOSStoreRun(recording: recording, saves: driver.saves, windowIDs: driver.windowIDs, paths: writer.paths)
    }
}
