import FileSystemKit
import SessionFormats

/// Finds a workload by name: a built-in one, or a workload file.
public enum WorkloadSource {
    /// Loads `name`: a built-in workload's name, else the path of a workload file.
    public static func load(_ name: String) throws(SimulatorError) -> Workload {
        if let workload = try BuiltInWorkloads.workload(name) { return workload }
        let bytes: [UInt8]
        do {
            bytes = try POSIXFileSystem().read(name)
        } catch {
            if case .tooLarge = error { throw .unreadableWorkload(path: name, reason: error.reason) }
            throw .unreadableWorkload(
                path: name, reason: "\(error.reason) (built-in workloads: \(BuiltInWorkloads.names.joined(separator: ", ")))")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .invalidWorkload(name: name, line: 0, reason: "not UTF-8 text")
        }
        return try WorkloadParser.parse(text, name: name)
    }
}
