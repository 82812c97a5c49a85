/// Everything that can go wrong when setting up or running a crash test (not a failing state:
/// those are results, reported as findings).
public enum SimulatorError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A workload file or built-in name could not be read or parsed; `line` is 1-based (0: the whole file).
    case invalidWorkload(name: String, line: Int, reason: String)
    /// A workload file is missing or unreadable.
    case unreadableWorkload(path: String, reason: String)
    /// A reproducer string could not be parsed or does not fit the workload it names.
    case invalidReproducer(String, reason: String)
    /// An option value is not one the simulator knows (model, protocol, shard).
    case invalidOption(name: String, value: String, reason: String)
    /// The store under test failed while the workload was recorded (it must not on a model file system).
    case storeFailed(event: String, reason: String)
    /// The kill loop could not start, talk to or reap its child process.
    case childFailed(reason: String)
    /// (`--exec`) The recorder a run needs is not installed.
    case recorderMissing(reason: String)
    /// (`--exec`) The program could not be run, or failed, or its trace could not be read.
    case execFailed(reason: String)
    /// (`--exec`) The program did something the persistence models cannot represent (a shared
    /// writable mapping, io_uring, a reflink...), at this line of its trace.
    case unmodelled(line: Int, reason: String)
    /// (`--exec`) The files rebuilt from the trace are not what the program left: the recording
    /// missed something.
    case recordingMismatch(reason: String)

    public var description: String {
        switch self {
        case .invalidWorkload(let name, let line, let reason):
            return line > 0 ? "\(name): line \(line): \(reason)" : "\(name): \(reason)"
        case .unreadableWorkload(let path, let reason): return "\(path): \(reason)"
        case .invalidReproducer(let text, let reason): return "reproducer '\(text)': \(reason)"
        case .invalidOption(let name, let value, let reason): return "--\(name) \(value): \(reason)"
        case .storeFailed(let event, let reason): return "workload event '\(event)': the store failed: \(reason)"
        case .childFailed(let reason): return "kill loop: \(reason)"
        case .recorderMissing(let reason): return reason
        case .execFailed(let reason): return "--exec: \(reason)"
        case .unmodelled(let line, let reason): return "--exec: cannot be modelled (trace line \(line)): \(reason)"
        case .recordingMismatch(let reason): return "--exec: the recording missed something: \(reason)"
        }
    }
}
