import FileSystemKit
import SessionFormats
import SessionModel
@_spi(CrashTesting) import SessionStore

/// Carries out workload events against the session store (`SessionService` on a virtual clock)
/// on any file system: the recording one of the simulated mode, or the real one of the kill
/// loop's child. Tabs are named by the workload's labels and found again by id after a relaunch.
final class WorkloadDriver {
    let workloadName: String
    let fileSystem: any FileSystem
    let profile: String
    let writeProtocol: WriteProtocol
    var clock = VirtualClock()
    var service: SessionService?
    var labels: [String: TabID] = [:]
    let groups = GroupIDSequence(high: 0x776F_726B_6C6F_6164)
    /// The first save failure, if any (a workload must not make the store fail).
    var failure: String?
    /// Hears each completed save.
    var onSave: (SaveRecord) -> Void = { _ in }
    /// Hears the app start running (true: launched) and stop (false: crashed or exiting).
    var onRunning: (Bool) -> Void = { _ in }
    /// Hears, before the event runs, that it closes the last incognito tab the workload has open
    /// (by the workload's own count, not the store's).
    var onLastIncognitoTabClosing: () -> Void = {}
    /// The workload's own idea of the windows and tabs (see `WorkloadModel`).
    var model = WorkloadModel()
    /// Crashes during restore since the last launch.
    var restoreCrashes = 0
    /// Whether the workload launched the app yet.
    var launchedBefore = false
    /// Set during a shutdown with changes to save: the app counts as running until that save is acknowledged.
    var runningUntilNextSave = false
    /// Hears each URL and title shown in a tab, and whether the tab is incognito.
    var onText: (String, Bool) -> Void = { _, _ in }

    init(workloadName: String, fileSystem: any FileSystem, profile: String, writeProtocol: WriteProtocol) {
        self.workloadName = workloadName
        self.fileSystem = fileSystem
        self.profile = profile
        self.writeProtocol = writeProtocol
    }

    /// The running service, or an error naming the event.
    func requireService(_ event: WorkloadEvent) throws(SimulatorError) -> SessionService {
        guard let service else { throw .invalidWorkload(name: workloadName, line: 0, reason: "\(event) needs a launched app (add launch)") }
        return service
    }

    /// The session id of a workload window name.
    static func sessionID(of window: String) -> SessionID {
        if window == WorkloadEvent.mainWindow { return Session.syntheticIdentifier }
        let hash = ContentHash.of(window)
        let hex = String(hash, radix: 16, uppercase: true)
        let digits = Array(
            String(repeating: "0", count: 16 - hex.count) + hex + String(ContentHash.combine(hash, 7) >> 16, radix: 16, uppercase: true))
        let padded = Array(String(digits).padding(toLength: 32, withPad: "0", startingAt: 0))
        func part(_ range: Range<Int>) -> String { String(padded[range]) }
        return "\(part(0..<8))-\(part(8..<12))-\(part(12..<16))-\(part(16..<20))-\(part(20..<32))"
    }

    /// Finds a labelled tab: its window and index.
    func find(_ label: String, in service: SessionService) throws(SimulatorError) -> (browser: Browser, index: Int, tab: BrowserTab) {
        guard let id = labels[label] else { throw .invalidWorkload(name: workloadName, line: 0, reason: "no tab named \(label)") }
        for browser in service.profile.allBrowsers {
            if let index = browser.tabs.tabs.firstIndex(where: { $0.id == id }) {
                return (browser, index, browser.tabs.tabs[index])
            }
        }
        throw .invalidWorkload(name: workloadName, line: 0, reason: "tab \(label) is not open (closed, or its window is gone)")
    }

    func refused(_ event: WorkloadEvent) -> SimulatorError {
        .invalidWorkload(name: workloadName, line: 0, reason: "the browser refused \(event)")
    }

    func note(_ url: String, _ title: String, incognito: Bool) {
        onText(url, incognito)
        if !title.isEmpty { onText(title, incognito) }
    }
}
