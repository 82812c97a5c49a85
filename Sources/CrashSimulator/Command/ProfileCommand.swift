import FileSystemKit
import SessionForensics
import SessionFormats
import SessionModel
@_spi(CrashTesting) import SessionStore

/// A sessionctl command that writes, as `crash-test --command` runs it on the model file system:
/// one that changes a profile, or one that writes an output beside its input (`OutputLayout`).
/// What it does is fixed by the input before the first run, so that the run, its re-run after a
/// crash and a replay all do the same thing.
public enum ProfileCommand: String, Sendable, CaseIterable {
    /// `repair PROFILE`.
    case repair
    /// `migrate PROFILE --to` the format the profile is not in (legacy when it has optimized sessions).
    case migrate
    /// `aside push PROFILE`: every live session, regular and incognito.
    case asidePush = "aside-push"
    /// `aside restore PROFILE NAME` of the first set-aside entry (by name) whose session is not live.
    case asideRestore = "aside-restore"
    /// `import DOCUMENT --out PROFILE` into an empty profile.
    case importDocument = "import"
    /// `aside drop PROFILE NAME` of the first set-aside entry (by name): its tabs may go, but only
    /// whole (the entry is listed whole or not at all).
    case asideDrop = "aside-drop"
    /// `compress PROFILE`: the bundle `PROFILE.tar.gz` beside the profile.
    case compress
    /// `decompress BUNDLE`: a bundle made by compress, to the directory beside it that its name
    /// less `.tar.gz` gives.
    case decompress
    /// `report PROFILE -o PROFILE.html`.
    case report

    /// What the command is asked to do, settled from the input before it first runs.
    public enum Arguments: Sendable, Equatable {
        case none
        case migration(MigrationTarget)
        case entry(String)
        case document([Session])
        /// The input read and the output written, in the model file system.
        case paths(OutputLayout)
    }

    /// What `--input` is for a command.
    public enum InputKind: Sendable {
        /// A profile directory.
        case profile
        /// An inspect JSON document (import).
        case document
        /// A `.tar.gz` bundle (decompress).
        case archive
    }

    /// What `--input` is.
    public var inputKind: InputKind {
        switch self {
        case .importDocument: return .document
        case .decompress: return .archive
        default: return .profile
        }
    }

    /// Where a re-run's clock starts: a day after the recorded run for a command that changes a
    /// profile, so that its set-aside entries (named by their time) never take the first run's
    /// names; at the same time for one that writes an output, so that a re-run writes the very
    /// bytes the uninterrupted run wrote.
    var rerunStart: Timestamp { writesOutput ? CommandSequence.recordedStart : CommandSequence.rerunStart }

    /// Whether the command writes an output beside its input (compress, decompress, report)
    /// rather than changing a profile.
    public var writesOutput: Bool { OutputLayout(self, profile: WorkloadRecorder.profile) != nil }

    /// Settles the arguments from the profile as it is before the run (or the document for import).
    func arguments(fileSystem: any FileSystem, profile: String, document: [Session]?, input: String) throws(SimulatorError) -> Arguments {
        switch self {
        case .repair, .asidePush:
            return .none
        case .migrate:
            // Away from the format the profile's sessions are in: to the other one its family converts to.
            let located = try? InputOpener.open(profile, fileSystem: fileSystem)
            let formats = Set(located?.sessions.map(\.format) ?? [])
            let browser = located?.browser ?? BrowserStores.defaultStoreBrowser
            guard
                let target = ProfileMigrations.all.map(\.target).first(where: { $0.browser == browser && !formats.contains($0.format) })
            else {
                throw .invalidWorkload(name: input, line: 0, reason: "migrate needs a profile whose family converts it to another format")
            }
            return .migration(target)
        case .asideRestore:
            let aside = Aside(profile: profile, writer: AtomicWriter(fileSystem: fileSystem), toolVersion: "crash-test")
            let entries = (try? aside.list()) ?? []
            let live = (try? aside.liveSessionIDs(incognito: false)) ?? []
            let liveIncognito = (try? aside.liveSessionIDs(incognito: true)) ?? []
            guard let entry = entries.first(where: { !($0.incognito ? liveIncognito : live).contains($0.session) }) else {
                throw .invalidWorkload(
                    name: input, line: 0, reason: "aside-restore needs a profile with a set-aside entry whose session is not live")
            }
            return .entry(entry.name)
        case .asideDrop:
            let aside = Aside(profile: profile, writer: AtomicWriter(fileSystem: fileSystem), toolVersion: "crash-test")
            guard let entry = ((try? aside.list()) ?? []).first else {
                throw .invalidWorkload(name: input, line: 0, reason: "aside-drop needs a profile with a set-aside entry")
            }
            return .entry(entry.name)
        case .importDocument:
            guard let document else {
                throw .invalidWorkload(name: input, line: 0, reason: "import takes an inspect JSON document as --input")
            }
            return .document(document)
        case .compress, .decompress, .report:
            guard let layout = OutputLayout(self, profile: profile) else {
                throw .invalidOption(name: "command", value: rawValue, reason: "writes no output")
            }
            return .paths(layout)
        }
    }

    /// Runs the command on `profile` of `fileSystem`, writing with `writeProtocol`; times and new
    /// group ids come from `sequence`, so that a run is the same every time.
    func run(
        _ arguments: Arguments, fileSystem: any FileSystem, profile: String, writeProtocol: WriteProtocol,
        sequence: CommandSequence
    ) throws {
        let clock: @Sendable () -> Timestamp = { sequence.nextTime() }
        let writer = AtomicWriter(fileSystem: fileSystem, writeProtocol: writeProtocol)
        let aside = Aside(profile: profile, writer: writer, toolVersion: "crash-test", clock: clock)
        switch (self, arguments) {
        case (.repair, _):
            _ = try Repairer(profile: profile, aside: aside).run(dryRun: false)
        case (.migrate, .migration(let target)):
            guard let migration = ProfileMigrations.all.first(where: { $0.target == target }) else {
                throw SimulatorError.invalidOption(name: "command", value: rawValue, reason: "no registered browser converts to \(target)")
            }
            _ = try migration.run(
                profile, toolVersion: "crash-test", dryRun: false,
                environment: MigrationEnvironment(writer: writer, clock: clock, newGroupID: { sequence.nextGroupID() }))
        case (.asidePush, _):
            _ = try aside.whileLocked {
                try aside.push(session: nil, incognito: false, reason: "crash-test")
                    + aside.push(session: nil, incognito: true, reason: "crash-test")
            }
        case (.asideRestore, .entry(let name)):
            _ = try aside.whileLocked { try aside.restore(name, force: false) }
        case (.asideDrop, .entry(let name)):
            try aside.whileLocked {
                // What an interrupted drop left is settled first; an entry dropped already (a
                // re-run after the drop left the list) needs nothing more, as `aside drop`
                // then says it is not there.
                guard (try? aside.find(name)) != nil else { return }
                _ = try aside.drop(name)
            }
        case (.importDocument, .document(let sessions)):
            _ = try SessionImports.writing(profile).run(sessions, aside: aside, replace: false)
        case (.compress, .paths(let layout)), (.decompress, .paths(let layout)), (.report, .paths(let layout)):
            try layout.write(self, writer: writer, clock: clock)
        default:
            throw SimulatorError.invalidOption(name: "command", value: rawValue, reason: "given the arguments of another command")
        }
    }
}
