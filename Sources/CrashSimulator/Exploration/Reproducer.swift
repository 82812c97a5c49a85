import SessionStore

/// Everything needed to build one crash state again: the run's workload, model, protocol and seed,
/// and the state. Its text form is what `crash-test` prints and `crash-test --replay` takes:
/// `workload=typical;model=pessimistic;protocol=safe;seed=1;crash=211;keep=-205;tear=209:cut:100`.
///
/// Operation numbers in the text count from 1 (`crash=211`: the crash came after operation 211).
public struct Reproducer: Sendable, Equatable {
    public var workload: String
    public var model: PersistenceModel
    public var writeProtocol: WriteProtocol
    public var seed: UInt64
    public var state: CrashState

    public init(workload: String, model: PersistenceModel, writeProtocol: WriteProtocol, seed: UInt64, state: CrashState) {
        self.workload = workload
        self.model = model
        self.writeProtocol = writeProtocol
        self.seed = seed
        self.state = state
    }

    public var text: String {
        "workload=\(workload);model=\(model.rawValue);protocol=\(writeProtocol.rawValue);seed=\(seed);\(state.text)"
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
        let known: Set<String> = ["workload", "model", "protocol", "seed", "crash", "keep", "tear", "recovery-crash"]
        if let unknown = fields.keys.sorted().first(where: { !known.contains($0) }) {
            throw .invalidReproducer(text, reason: "unknown field \(unknown)")
        }
        guard let workload = fields["workload"], !workload.isEmpty else { throw .invalidReproducer(text, reason: "workload= is missing") }
        guard let model = fields["model"].flatMap(PersistenceModel.init(rawValue:)) else {
            throw .invalidReproducer(text, reason: "model= is missing or not one of \(PersistenceModel.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard let writeProtocol = fields["protocol"].flatMap(WriteProtocol.init(rawValue:)) else {
            throw .invalidReproducer(text, reason: "protocol= is missing or not one of \(WriteProtocol.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard let seed = fields["seed"].flatMap({ UInt64($0) }) else { throw .invalidReproducer(text, reason: "seed= is missing or not a number") }
        var stateFields = fields
        for key in ["workload", "model", "protocol", "seed"] { stateFields[key] = nil }
        self.init(workload: workload, model: model, writeProtocol: writeProtocol, seed: seed,
                  state: try CrashState(fields: stateFields))
    }
}
