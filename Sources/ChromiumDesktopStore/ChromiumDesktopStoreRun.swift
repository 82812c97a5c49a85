import Archive
import ChromiumDesktop
@_spi(CrashTesting) import CrashSimulator
import FileSystemKit
import SessionFormats
import SessionModel
import SessionStore

/// One uninterrupted run of a workload on the model of Chromium desktop's session service,
/// recorded: its file operations, every batch that returned, and what each file should hold,
/// which each crash state is judged by.
public struct ChromiumDesktopStoreRun: StoreRun {
    /// The profile directory in the model file system.
    static let profile = "/profile"
    public let recording: Recording
    let saves: [ChromiumDesktopStoreDriver.Save]
    public var saveEnds: [Int] { saves.map(\.afterOperations) }
    /// Everything written to each `Session_` file, by name.
    let intended: [String: [UInt8]]

    /// Plays `workload` under `saveProtocol` on an empty profile.
    static func record(_ workload: Workload, saveProtocol: ChromiumDesktopSaveProtocol) throws(SimulatorError) -> ChromiumDesktopStoreRun {
        let (tree, fileSystem, initial) = try StoreExploration.emptyProfile([profile])
        let writer = SNSSStoreWriter(fileSystem: fileSystem, profile: profile, saveProtocol: saveProtocol)
        var driver = ChromiumDesktopStoreDriver(writer: writer, operations: { fileSystem.operations.count })
        try driver.play(workload)
        let recording = StoreExploration.recording(
            workload, profile: profile, initial: initial, tree: tree, fileSystem: fileSystem,
            saves: driver.saves.map { ($0.afterOperations, $0.label) }, events: driver.events)
        return ChromiumDesktopStoreRun(recording: recording, saves: driver.saves, intended: driver.intended)
    }
}
