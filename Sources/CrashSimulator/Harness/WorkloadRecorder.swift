import SessionFormats
import SessionModel
import SessionStore

/// Runs a workload against the session store (`SessionService` on a virtual clock) on a recording
/// `ModelFileSystem`, and returns the recording the explorer works from.
///
/// Saves are acknowledged through `SessionService.onSave`; at each acknowledgement and after each
/// event the session files are recorded as a version. Tabs are named by the workload's labels and
/// found again by id after a relaunch.
public struct WorkloadRecorder {
    /// The profile directory in the model file system.
    public static let profile = "/profile"

    public let writeProtocol: WriteProtocol

    public init(writeProtocol: WriteProtocol = .safe) {
        self.writeProtocol = writeProtocol
    }

    public func record(_ workload: Workload) throws(SimulatorError) -> Recording {
        let session = RecordingSession(workload: workload, writeProtocol: writeProtocol)
        return try session.run()
    }
}

/// The mutable state of one recording run.
final class RecordingSession {
    let workload: Workload
    let writeProtocol: WriteProtocol
    let tree = ModelTree()
    let fileSystem: ModelFileSystem
    var clock = VirtualClock()
    var service: SessionService?
    var labels: [String: TabID] = [:]
    var versions = VersionIndex()
    var acknowledgements: [Acknowledgement] = []
    var privacy = PrivacyIndex()
    var incognitoStrings: Set<String> = []
    var regularStrings: Set<String> = []
    var transitions: [(operation: Int, running: Bool)] = []
    var events: [(operation: Int, text: String)] = []
    var failure: String?
    let groups = GroupIDSequence(high: 0x776F_726B_6C6F_6164)

    init(workload: Workload, writeProtocol: WriteProtocol) {
        self.workload = workload
        self.writeProtocol = writeProtocol
        self.fileSystem = ModelFileSystem(tree: tree, capturesCallSites: true)
    }

    var profile: String { WorkloadRecorder.profile }

    func run() throws(SimulatorError) -> Recording {
        do {
            try fileSystem.mkdir(profile, mode: 0o755)
        } catch {
            throw .storeFailed(event: "setup", reason: error.description)
        }
        fileSystem.clearOperations()
        // The names oracles look for exist in every state's name table, even if recovery is the first to use them.
        for name in [ProfileLayout.optimizedDirectory, ProfileLayout.incognitoDirectory, ProfileLayout.backupsDirectory,
                     ProfileLayout.metadataFile, ProfileLayout.tabDataFile] {
            _ = tree.names.intern(name)
        }
        let initial = tree.snapshot()
        recordVersion()
        for step in workload.steps {
            fileSystem.context = "line \(step.line): \(step.text)"
            events.append((fileSystem.operations.count, step.text))
            do {
                try perform(step.event)
            } catch let error as SimulatorError {
                throw error
            } catch {
                throw .storeFailed(event: step.text, reason: "\(error)")
            }
            if let failure { throw .storeFailed(event: step.text, reason: failure) }
            recordVersion()
        }
        var running: [Bool] = []
        var state = false
        var next = 0
        for index in 0..<fileSystem.operations.count {
            while next < transitions.count && transitions[next].operation <= index {
                state = transitions[next].running
                next += 1
            }
            running.append(state)
        }
        return Recording(workload: workload.name, profile: profile, initial: initial, names: tree.names,
                         operations: fileSystem.operations, acknowledgements: acknowledgements, versions: versions,
                         privacy: privacy, inodeCount: tree.inodeCapacity, running: running, events: events)
    }

    @discardableResult
    func recordVersion() -> Int {
        let scan = ProfileScan(tree: tree, profile: fileSystem.resolve(profile), names: ProfileNames(tree.names), collectFiles: false)
        let names = tree.names
        return versions.record(scan, names: names) { SessionPaths.directory($0, names) }
    }

    func acknowledge(_ record: SaveRecord) {
        var group: Int?
        if record.incognitoPurged {
            group = privacy.addGroup(closing: incognitoStrings, keeping: regularStrings)
            incognitoStrings = []
        }
        let version = recordVersion()
        acknowledgements.append(Acknowledgement(afterOperations: fileSystem.operations.count, version: version,
                                                label: "save #\(record.sequence) (\(record.trigger.rawValue), line \(fileSystem.context.split(separator: ":").first.map { String($0.dropFirst(5)) } ?? "?"))",
                                                privacyGroup: group))
    }

    /// The running service, or an error naming the event.
    func requireService(_ event: WorkloadEvent) throws(SimulatorError) -> SessionService {
        guard let service else { throw .invalidWorkload(name: workload.name, line: 0, reason: "\(event) needs a launched app (add launch)") }
        return service
    }

    /// The session id of a workload window name.
    static func sessionID(of window: String) -> SessionID {
        if window == WorkloadEvent.mainWindow { return Session.syntheticIdentifier }
        let hash = ContentHash.of(window)
        let hex = String(hash, radix: 16, uppercase: true)
        let digits = Array(String(repeating: "0", count: 16 - hex.count) + hex + String(ContentHash.combine(hash, 7) >> 16, radix: 16, uppercase: true))
        let padded = Array(String(digits).padding(toLength: 32, withPad: "0", startingAt: 0))
        func part(_ range: Range<Int>) -> String { String(padded[range]) }
        return "\(part(0..<8))-\(part(8..<12))-\(part(12..<16))-\(part(16..<20))-\(part(20..<32))"
    }

    /// Finds a labelled tab: its window and index.
    func find(_ label: String, in service: SessionService) throws(SimulatorError) -> (browser: Browser, index: Int, tab: BrowserTab) {
        guard let id = labels[label] else { throw .invalidWorkload(name: workload.name, line: 0, reason: "no tab named \(label)") }
        for browser in service.profile.allBrowsers {
            if let index = browser.tabs.tabs.firstIndex(where: { $0.id == id }) {
                return (browser, index, browser.tabs.tabs[index])
            }
        }
        throw .invalidWorkload(name: workload.name, line: 0, reason: "tab \(label) is not open (closed, or its window is gone)")
    }
}
