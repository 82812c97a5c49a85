import FileSystemKit
import Foundation

/// Judges the crash states of a traced program with the user's checker: each state written out
/// as a private directory, the command run by the shell with that directory as its argument (`$1`)
/// and in `SESSIONCTL_STATE_DIR`, the program's standard output up to the crash in the file named
/// by `SESSIONCTL_STATE_OUTPUT`. Exit 0: consistent; 1: a violation; anything else (or no answer
/// within `timeout` seconds): the checker failed, which is reported as such.
final class ExecJudge {
    let check: String
    let modelRoot: String
    let output: [(afterOperations: Int, bytes: [UInt8])]
    let scratch: String
    let timeout: Double
    private var verdicts: [UInt64: [Finding]] = [:]
    /// Distinct states (what the directory holds and the output printed) given to the checker.
    var judged: Int { verdicts.count }

    init(check: String, modelRoot: String, output: [(afterOperations: Int, bytes: [UInt8])], scratch: String, timeout: Double = 60) {
        self.check = check
        self.modelRoot = modelRoot
        self.output = output
        self.scratch = scratch
        self.timeout = timeout
    }

    /// The findings of the state `tree` holds after a crash once `crashPoint` operations were issued.
    func judge(_ tree: ModelTree, crashPoint: Int) -> [Finding] {
        // What the program had printed before the crash: every write to its output made once
        // at most `crashPoint` operations were issued.
        let printed = output.prefix { $0.afterOperations <= crashPoint }
        let key = tree.hash &+ UInt64(printed.count) &* 0x9E37_79B9_7F4A_7C15
        if let known = verdicts[key] { return known }
        let findings = run(tree, printed: printed.flatMap(\.bytes))
        verdicts[key] = findings
        return findings
    }

    /// Writes the state out and runs the checker on it.
    private func run(_ tree: ModelTree, printed: [UInt8]) -> [Finding] {
        let directory = joinPath(scratch, "state" + modelRoot)
        let outputFile = joinPath(scratch, "output-before-crash")
        do {
            try ExecModel.write(tree, at: modelRoot, to: directory)
            try Data(printed).write(to: URL(fileURLWithPath: outputFile))
        } catch {
            return [Finding(.checkerError, "the state could not be written out for the checker: \(error.localizedDescription)")]
        }
        let said = joinPath(scratch, "checker-said")
        guard FileManager.default.createFile(atPath: said, contents: nil) else {
            return [Finding(.checkerError, "cannot keep what the checker says in \(said)")]
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", check, "sh", directory]
        var environment = ProcessInfo.processInfo.environment
        environment["SESSIONCTL_STATE_DIR"] = directory
        environment["SESSIONCTL_STATE_OUTPUT"] = outputFile
        process.environment = environment
        process.currentDirectoryURL = URL(fileURLWithPath: scratch)
        process.standardInput = FileHandle.nullDevice
        guard let sink = try? FileHandle(forWritingTo: URL(fileURLWithPath: said)) else {
            return [Finding(.checkerError, "cannot keep what the checker says in \(said)")]
        }
        defer { try? sink.close() }
        process.standardOutput = sink
        process.standardError = sink
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        do {
            try process.run()
        } catch {
            return [Finding(.checkerError, "the checker could not be started: \(error.localizedDescription)")]
        }
        if ended.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            ended.wait()
            return [Finding(.checkerError, "the checker gave no answer within \(Int(timeout)) s")]
        }
        let words = String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: said))) ?? Data(), as: UTF8.self)
        let first = words.split(separator: "\n").first.map { String($0.prefix(300)) }
        switch (process.terminationReason, process.terminationStatus) {
        case (.exit, 0): return []
        case (.exit, 1): return [Finding(.checker, first.map { "the checker says: \($0)" } ?? "the checker exits 1")]
        case (.exit, let status):
            return [Finding(.checkerError, "the checker failed (exit \(status))\(first.map { ": \($0)" } ?? "")")]
        case (_, let signal):
            return [Finding(.checkerError, "the checker was killed by signal \(signal)")]
        }
    }
}
