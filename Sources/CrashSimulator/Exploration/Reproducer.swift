@_spi(CrashTesting) import SessionStore

/// Everything needed to build one crash state again: the run's workload, model, protocol and seed,
/// and the state. Its text form is what `crash-test` prints and `crash-test --replay` takes:
/// `workload=typical;model=pessimistic;protocol=safe;seed=1;crash=211;keep=-205;tear=209:cut:100`.
///
/// Operation numbers in the text count from 1 (`crash=211`: the crash came after operation 211).
/// A state of `crash-test --command` names the command and its input instead of a workload:
/// `command=repair;input=Fixtures/gallery/x;model=pessimistic;protocol=safe;seed=1;crash=12`.
/// A state of another browser's store (`crash-test --store firefox-ios`) names the store, and its
/// protocol is one of that store's: `store=firefox-ios;workload=typical;model=pessimistic;protocol=firefox;seed=1;crash=40`.
public struct Reproducer: Sendable, Equatable {
    /// The workload (for a command's state: `<command> <input>`).
    public var workload: String
    /// The profile the workload started from (`--from`), if not an empty one.
    public var startingProfile: String?
    /// The command of a `--command` state, with its input path.
    public var command: (name: ProfileCommand, input: String)? {
        get { commandName.map { ($0, commandInput ?? "") } }
        set {
            commandName = newValue?.name
            commandInput = newValue?.input
        }
    }
    private var commandName: ProfileCommand?
    /// For a state of a browser's store, the store and its save protocol (`writeProtocol` is then unused).
    public var store: BrowserStore?
    private var commandInput: String?
    public var model: PersistenceModel
    @_spi(CrashTesting) public var writeProtocol: WriteProtocol
    public var seed: UInt64
    public var state: CrashState

    @_spi(CrashTesting) public init(
        workload: String, startingProfile: String? = nil, model: PersistenceModel, writeProtocol: WriteProtocol, seed: UInt64,
        state: CrashState
    ) {
        self.workload = workload
        self.startingProfile = startingProfile
        self.model = model
        self.writeProtocol = writeProtocol
        self.seed = seed
        self.state = state
    }

    public static func == (lhs: Reproducer, rhs: Reproducer) -> Bool {
        lhs.text == rhs.text
    }

    public var text: String {
        if let command {
            return
                "command=\(command.name.rawValue);input=\(command.input);model=\(model.rawValue);protocol=\(writeProtocol.rawValue);seed=\(seed);\(state.text)"
        }
        if let store {
            return
                "store=\(store.name);workload=\(workload);model=\(model.rawValue);protocol=\(store.protocolName);seed=\(seed);\(state.text)"
        }
        let from = startingProfile.map { "from=\($0);" } ?? ""
        return "workload=\(workload);\(from)model=\(model.rawValue);protocol=\(writeProtocol.rawValue);seed=\(seed);\(state.text)"
    }

    /// Parses the text form.
    public init(text: String) throws(SimulatorError) {
        var fields: [String: String] = [:]
        for part in text.split(separator: ";") {
            guard let equals = part.firstIndex(of: "=") else { throw .invalidReproducer(text, reason: "'\(part)' is not key=value") }
            let key = String(part[..<equals])
            guard fields[key] == nil else { throw .invalidReproducer(text, reason: "\(key) appears twice") }
            fields[key] = String(part[part.index(after: equals)...])
        }
        let known: Set<String> = [
            "store", "workload", "from", "command", "input", "model", "protocol", "seed", "crash", "keep", "tear", "recovery-crash",
            "recovery-keep",
            "recovery-tear"
        ]
        if let unknown = fields.keys.sorted().first(where: { !known.contains($0) }) {
            throw .invalidReproducer(text, reason: "unknown field \(unknown)")
        }
        var command: (ProfileCommand, String)?
        if let name = fields["command"] {
            guard let parsed = ProfileCommand(rawValue: name) else {
                throw .invalidReproducer(
                    text, reason: "command= is not one of \(ProfileCommand.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            guard let input = fields["input"], !input.isEmpty else { throw .invalidReproducer(text, reason: "input= is missing") }
            guard fields["workload"] == nil else {
                throw .invalidReproducer(text, reason: "a state has a workload= or a command=, not both")
            }
            command = (parsed, input)
        }
        guard let workload = command.map({ "\($0.0.rawValue) \($0.1)" }) ?? fields["workload"], !workload.isEmpty else {
            throw .invalidReproducer(text, reason: "workload= is missing")
        }
        guard let model = fields["model"].flatMap(PersistenceModel.init(rawValue:)) else {
            throw .invalidReproducer(
                text, reason: "model= is missing or not one of \(PersistenceModel.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        var store: BrowserStore?
        if let name = fields["store"] {
            guard BrowserStore.names.contains(name) else {
                throw .invalidReproducer(text, reason: "store= is not one of \(BrowserStore.names.joined(separator: ", "))")
            }
            guard command == nil, fields["from"] == nil else {
                throw .invalidReproducer(text, reason: "a state of the \(name) store has no command= or from=")
            }
            do throws(BrowserStore.UnknownProtocol) {
                store = try BrowserStore(name: name, protocolName: fields["protocol"] ?? "")
            } catch {
                throw .invalidReproducer(text, reason: "protocol= is missing or not one of \(error.known.joined(separator: ", "))")
            }
        }
        guard let writeProtocol = fields["store"] != nil ? .safe : fields["protocol"].flatMap(WriteProtocol.init(rawValue:)) else {
            throw .invalidReproducer(
                text, reason: "protocol= is missing or not one of \(WriteProtocol.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard let seed = fields["seed"].flatMap({ UInt64($0) }) else {
            throw .invalidReproducer(text, reason: "seed= is missing or not a number")
        }
        var stateFields = fields
        for key in ["store", "workload", "from", "command", "input", "model", "protocol", "seed"] { stateFields[key] = nil }
        if let from = fields["from"], from.isEmpty { throw .invalidReproducer(text, reason: "from= is empty") }
        self.init(
            workload: workload, startingProfile: fields["from"], model: model, writeProtocol: writeProtocol, seed: seed,
            state: try CrashState(fields: stateFields))
        self.command = command.map { (name: $0.0, input: $0.1) }
        self.store = store
    }
}
