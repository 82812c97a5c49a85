import CrashSimulator

/// crash-test's text inputs: workload files (as `WorkloadSource` reads them: UTF-8, then the
/// parser) and reproducers given to `--replay`, whose text form must parse back to the same value.
enum WorkloadFuzz {
    @Sendable static func run(_ bytes: [UInt8]) {
        guard let text = String(validating: bytes, as: UTF8.self) else { return }
        if let workload = try? WorkloadParser.parse(text, name: "fuzz.workload"), workload.steps.isEmpty {
            fatalError("a workload parsed with no steps")
        }
        if let reproducer = try? Reproducer(text: text) {
            guard let again = try? Reproducer(text: reproducer.text), again == reproducer else {
                fatalError("reproducer '\(reproducer.text)' does not parse back to itself")
            }
        }
    }
}
