import FileSystemKit
import SessionForensics
import SessionFormats
import SessionModel
@_spi(CrashTesting) import SessionStore

/// One uninterrupted run of a command on the model file system, recorded: its file operations,
/// and what the profile held before and after (or, for a command that writes an output, what its
/// input and output were), which every crash state is judged by.
public struct CommandRun: Sendable {
    public let command: ProfileCommand
    /// The profile directory (the document for import, the bundle for decompress) the run was given.
    public let input: String
    let arguments: ProfileCommand.Arguments
    @_spi(CrashTesting) public let writeProtocol: WriteProtocol
    /// The operations, with the loaded profile as the durable start.
    public let recording: Recording
    /// Every tab before the run.
    let before: TabCensus
    /// Every tab after the uninterrupted run.
    let expected: TabCensus
    /// The validation errors (rule, side, session) of the profile before the run.
    let errorsBefore: Set<String>
    /// The `.sessionctl-` names the uninterrupted run left (its documented outputs; none expected).
    let leftoversExpected: Set<String>
    /// For a command that writes an output: what its input and output must be (see `OutputCheck`).
    let output: OutputCheck?

    /// Loads `input` into a model file system at `WorkloadRecorder.profile` and runs `command` on it once.
    @_spi(CrashTesting) public static func record(
        _ command: ProfileCommand, input: String, writeProtocol: WriteProtocol
    ) throws(SimulatorError) -> CommandRun {
        let profile = WorkloadRecorder.profile
        var document: [Session]?
        let tree: ModelTree
        switch command.inputKind {
        case .document:
            do {
                document = try InspectDocument.decode(JSONParser.parse(ReadableTree.readFile(input), file: input), file: input)
            } catch {
                throw .unreadableWorkload(path: input, reason: "\(error)")
            }
            tree = ModelTree()
            do { try ModelFileSystem(tree: tree).mkdir(profile, mode: 0o755) } catch {
                throw .storeFailed(event: "setup", reason: error.description)
            }
        case .archive:
            tree = try loadArchive(input, at: OutputLayout(command, profile: profile)?.input ?? profile + ".tar.gz")
        case .profile:
            guard POSIXFileSystem().resolvedKind(of: input) == .directory else {
                throw .unreadableWorkload(path: input, reason: "not a profile directory (--command \(command.rawValue) takes a profile)")
            }
            tree = DiskLoader.load(input).tree
        }
        let fileSystem = ModelFileSystem(tree: tree)
        let arguments = try command.arguments(fileSystem: fileSystem, profile: profile, document: document, input: input)
        var inputContent: UInt64?
        if case .paths(let layout) = arguments { inputContent = OutputCheck.content(fileSystem, layout.input) }
        let initial = tree.snapshot()
        let before = TabCensus.take(fileSystem, profile: profile)
        let errorsBefore = validationErrors(fileSystem, profile: profile)
        fileSystem.clearOperations()
        do {
            try command.run(
                arguments, fileSystem: fileSystem, profile: profile, writeProtocol: writeProtocol,
                sequence: CommandSequence(start: CommandSequence.recordedStart))
        } catch {
            throw .storeFailed(event: "sessionctl \(command.rawValue) (the uninterrupted run)", reason: "\(error)")
        }
        var output: OutputCheck?
        if case .paths(let layout) = arguments, let inputContent {
            guard let check = OutputCheck(after: fileSystem, layout: layout, inputContent: inputContent) else {
                throw .storeFailed(event: "sessionctl \(command.rawValue) (the uninterrupted run)", reason: "it wrote no \(layout.output)")
            }
            output = check
        }
        let operations = fileSystem.operations
        let recording = Recording(
            workload: "\(command.rawValue) \(input)", profile: profile, initial: initial, names: tree.names,
            operations: operations, acknowledgements: [], versions: VersionIndex(), privacy: PrivacyIndex(),
            inodeCount: tree.inodeCapacity, running: Array(repeating: false, count: operations.count), events: [])
        return CommandRun(
            command: command, input: input, arguments: arguments, writeProtocol: writeProtocol, recording: recording,
            before: before, expected: TabCensus.take(fileSystem, profile: profile), errorsBefore: errorsBefore,
            leftoversExpected: leftovers(fileSystem, profile: profile), output: output)
    }

    /// A tree holding the file `input` of the real disk (a bundle) at `path`, in the root directory.
    private static func loadArchive(_ input: String, at path: String) throws(SimulatorError) -> ModelTree {
        let disk = POSIXFileSystem()
        guard disk.resolvedKind(of: input) == .file else {
            throw .unreadableWorkload(path: input, reason: "not a file (--command decompress takes a bundle made by compress)")
        }
        let tree = ModelTree()
        do {
            let bytes = try disk.read(input)
            let fileSystem = ModelFileSystem(tree: tree)
            let handle = try fileSystem.createExclusive(path, mode: 0o644)
            var offset = 0
            while offset < bytes.count { offset += try fileSystem.write(handle, bytes[offset...]) }
            try fileSystem.close(handle)
        } catch {
            throw .unreadableWorkload(path: input, reason: error.description)
        }
        return tree
    }

    /// The validation errors of a profile, as `rule side/session` (nothing when it is no profile).
    static func validationErrors(_ fileSystem: any ReadableFileSystem, profile: String) -> Set<String> {
        guard let input = try? InputOpener.open(profile, fileSystem: fileSystem), input.kind == .profile else { return [] }
        return Set(
            BrowserRulebooks.validate(input).findings.filter { $0.rule.severity == .error }.map {
                "\($0.rule.name) \($0.incognito ? "OTR/" : "")\($0.session)"
            })
    }

    /// The paths (relative to the profile) of every name sessionctl uses for its own work in progress.
    static func leftovers(_ fileSystem: any ReadableFileSystem, profile: String) -> Set<String> {
        var found: Set<String> = []
        func walk(_ directory: String, _ relative: String) {
            for name in (try? fileSystem.list(directory)) ?? [] {
                let shown = joinPath(relative, name)
                if name.hasPrefix(".sessionctl-") { found.insert(shown) }
                if fileSystem.kind(of: joinPath(directory, name)) == .directory { walk(joinPath(directory, name), shown) }
            }
        }
        walk(profile, "")
        return found
    }
}
