import FileSystemKit
import SessionFormats
import SessionModel
@_spi(CrashTesting) import SessionStore

/// Runs a workload against the session store on a recording `ModelFileSystem`, and returns the
/// recording the explorer works from.
///
/// Saves are acknowledged through `SessionService.onSave`; at each acknowledgement and after each
/// event the session files are recorded as a version.
public struct WorkloadRecorder {
    /// The profile directory in the model file system.
    public static let profile = "/profile"
    /// The store's save delay (Chrome's 2.5 s), in microseconds.
    static let saveDelayMicroseconds: Int64 = {
        let delay = SessionService.Options().saveDelay.components
        return delay.seconds * 1_000_000 + delay.attoseconds / 1_000_000_000_000
    }()

    /// The protocol the store writes with.
    @_spi(CrashTesting) public let writeProtocol: WriteProtocol

    /// A recorder whose store keeps every promise (`WriteProtocol.safe`).
    public init() { self.init(writeProtocol: .safe) }

    /// A recorder whose store writes with `writeProtocol`, flaws included.
    @_spi(CrashTesting) public init(writeProtocol: WriteProtocol) {
        self.writeProtocol = writeProtocol
    }

    /// Records `workload`, on an empty profile, on the damaged profile it starts from, or, with
    /// `startingProfile`, on a copy of that profile directory (loaded into the model file system;
    /// the real one is only read). A workload that starts from a profile of its own takes no other.
    public func record(_ workload: Workload, startingProfile: String? = nil) throws(SimulatorError) -> Recording {
        var tree = ModelTree()
        if let start = workload.start {
            guard startingProfile == nil else {
                throw .invalidWorkload(
                    name: workload.name, line: 0, reason: "it starts from a profile of its own (from \(start.rawValue)), not from --from")
            }
            do {
                try start.write(to: ModelFileSystem(tree: tree), profile: WorkloadRecorder.profile)
            } catch {
                throw .storeFailed(event: "from \(start.rawValue)", reason: error.description)
            }
        }
        if let startingProfile {
            guard POSIXFileSystem().resolvedKind(of: startingProfile) == .directory else {
                throw .unreadableWorkload(path: startingProfile, reason: "not a profile directory (--from takes a profile)")
            }
            tree = DiskLoader.load(startingProfile).tree
        }
        return try RecordingSession(workload: workload, writeProtocol: writeProtocol, tree: tree).run()
    }
}

/// The mutable state of one recording run.
final class RecordingSession {
    let workload: Workload
    let tree: ModelTree
    let fileSystem: ModelFileSystem
    let driver: WorkloadDriver
    var versions = VersionIndex()
    var acknowledgements: [Acknowledgement] = []
    var privacy = PrivacyIndex()
    var incognitoStrings: Set<String> = []
    var regularStrings: Set<String> = []
    var transitions: [(operation: Int, running: Bool)] = []
    var events: [(operation: Int, text: String)] = []
    /// Set when the workload closed its last incognito tab: the next acknowledged save must leave
    /// no incognito byte readable, whatever the store says it did.
    var incognitoClosing = false
    /// Broken save promises, by the operation count at their acknowledgement.
    var contract: [Int: [Finding]] = [:]
    /// When (virtual microseconds) and at which line the workload first changed something since
    /// the last acknowledged save, and whether its lateness was reported.
    var unsavedSince: (time: Int64, line: Int, reported: Bool)?

    init(workload: Workload, writeProtocol: WriteProtocol, tree: ModelTree) {
        self.workload = workload
        self.tree = tree
        let fileSystem = ModelFileSystem(tree: tree, capturesCallSites: true)
        self.fileSystem = fileSystem
        driver = WorkloadDriver(
            workloadName: workload.name, fileSystem: fileSystem, profile: WorkloadRecorder.profile, writeProtocol: writeProtocol)
        driver.onSave = { [unowned self] record in self.acknowledge(record) }
        driver.onRunning = { [unowned self] running in self.transitions.append((self.fileSystem.operations.count, running)) }
        driver.onLastIncognitoTabClosing = { [unowned self] in self.incognitoClosing = true }
        driver.onText = { [unowned self] text, incognito in
            if incognito { self.incognitoStrings.insert(text) } else { self.regularStrings.insert(text) }
        }
    }

    var profile: String { WorkloadRecorder.profile }

    func run() throws(SimulatorError) -> Recording {
        do {
            if fileSystem.kind(of: profile) == nil { try fileSystem.mkdir(profile, mode: 0o755) }
        } catch {
            throw .storeFailed(event: "setup", reason: error.description)
        }
        fileSystem.clearOperations()
        // The names oracles look for exist in every state's name table, even if recovery is the first to use them.
        for name in [
            ProfileLayout.optimizedDirectory, ProfileLayout.incognitoDirectory, ProfileLayout.backupsDirectory,
            ProfileLayout.metadataFile, ProfileLayout.tabDataFile
        ] {
            _ = tree.names.intern(name)
        }
        let initial = tree.snapshot()
        // A window an interrupted command left is the starting one once the launch settles it.
        let settled = StartingFacts.settledCopies(of: tree, path: profile)
        let starting = StartingFacts(tree: tree, profile: fileSystem.resolve(profile), settled: settled)
        for copy in settled {
            let scan = ProfileScan(tree: copy, profile: fileSystem.resolve(profile), names: ProfileNames(copy.names), collectFiles: false)
            versions.record(scan, names: copy.names) { SessionPaths.directory($0, copy.names) }
        }
        recordVersion()
        for step in workload.steps {
            fileSystem.context = "line \(step.line): \(step.text)"
            events.append((fileSystem.operations.count, step.text))
            do {
                try driver.perform(step.event)
            } catch let error as SimulatorError {
                throw error
            } catch {
                throw .storeFailed(event: step.text, reason: "\(error)")
            }
            if let failure = driver.failure { throw .storeFailed(event: step.text, reason: failure) }
            // Going to the background, disconnecting a window and shutting down each save what
            // the user changed before the workload goes on.
            if step.event.promisesSave, driver.model.hasUnsavedChanges {
                contract[fileSystem.operations.count, default: []].append(
                    Finding(
                        .durability,
                        "line \(step.line): \(step.text) returned with the workload's changes since the last acknowledged save unsaved"))
            }
            checkSaveDeadline(after: step)
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
        var recording = Recording(
            workload: workload.name, profile: profile, initial: initial, names: tree.names,
            operations: fileSystem.operations, acknowledgements: acknowledgements, versions: versions,
            privacy: privacy, inodeCount: tree.inodeCapacity, running: running, events: events,
            contract: contract)
        recording.starting = starting
        recording.start = workload.start
        return recording
    }

    /// The delayed save's promise, on the virtual clock: a change is acknowledged within the save
    /// delay of the first change since the last acknowledged save (the timer starts at the first
    /// change and is not restarted by later ones, as Chrome's is not). Checked after each event.
    func checkSaveDeadline(after step: Workload.Step) {
        guard driver.model.hasUnsavedChanges else {
            unsavedSince = nil
            return
        }
        let now = driver.clock.now.microseconds
        guard let since = unsavedSince else {
            unsavedSince = (now, step.line, false)
            return
        }
        let late = now - since.time - Int64(WorkloadRecorder.saveDelayMicroseconds)
        if late > 0 && !since.reported {
            unsavedSince?.reported = true
            contract[fileSystem.operations.count, default: []].append(
                Finding(
                    .durability,
                    "line \(step.line): \(step.text): the workload's changes since line \(since.line) are still unsaved \(Double(now - since.time) / 1_000_000) s after them, past the \(Double(WorkloadRecorder.saveDelayMicroseconds) / 1_000_000) s save delay"
                ))
        }
    }

    @discardableResult
    func recordVersion() -> Int {
        let scan = ProfileScan(tree: tree, profile: fileSystem.resolve(profile), names: ProfileNames(tree.names), collectFiles: false)
        let names = tree.names
        return versions.record(scan, names: names) { SessionPaths.directory($0, names) }
    }

    func acknowledge(_ record: SaveRecord) {
        let broken = SaveContractOracle.check(record, model: driver.model.windows, fileSystem: fileSystem, profile: profile)
        if !broken.isEmpty { contract[fileSystem.operations.count, default: []] += broken }
        var group: Int?
        if record.incognitoPurged || incognitoClosing {
            incognitoClosing = false
            group = privacy.addGroup(closing: incognitoStrings, keeping: regularStrings)
            incognitoStrings = []
        }
        let version = recordVersion()
        let line = fileSystem.context.split(separator: ":").first.map { String($0.dropFirst(5)) } ?? "?"
        acknowledgements.append(
            Acknowledgement(
                afterOperations: fileSystem.operations.count, version: version,
                label: "save #\(record.sequence) (\(record.trigger.rawValue), line \(line))",
                privacyGroup: group))
    }
}
