import FileSystemKit
import Foundation

/// Judges the crash states of a traced program with the user's checker: each distinct state
/// (what the directory holds and what the program had printed) written out as a private
/// directory, and the command run by the shell with that directory as its argument (`$1`) and in
/// `SESSIONCTL_STATE_DIR`, the program's standard output up to the crash in the file named by
/// `SESSIONCTL_STATE_OUTPUT`. Exit 0: consistent; 1: a violation; anything else (or no answer
/// within `timeout` seconds): the checker failed, which is reported as such.
///
/// In two passes over the states: `submit` writes each new state out on the exploring thread and
/// hands it to a checker on another (as many at once as `workers`); once `finish` has waited for
/// them, `verdict` gives each state the verdict of its distinct state.
final class ExecJudge: @unchecked Sendable {
    let check: String
    let modelRoot: String
    let output: [(afterOperations: Int, bytes: [UInt8])]
    let scratch: String
    let timeout: Double
    private let lock = NSLock()
    private var verdicts: [UInt64: [Finding]] = [:]
    private var submitted: Set<UInt64> = []
    private let slots: DispatchSemaphore
    private let group = DispatchGroup()
    private var count = 0

    /// Distinct states (what the directory holds and the output printed) given to the checker.
    var judged: Int { lock.withLock { submitted.count } }

    init(
        check: String, modelRoot: String, output: [(afterOperations: Int, bytes: [UInt8])], scratch: String, timeout: Double = 60,
        workers: Int = max(ProcessInfo.processInfo.activeProcessorCount, 1)
    ) {
        self.check = check
        self.modelRoot = modelRoot
        self.output = output
        self.scratch = scratch
        self.timeout = timeout
        slots = DispatchSemaphore(value: workers)
    }

    /// What the program had printed when the crash came after `crashPoint` operations: every
    /// write to its output made once at most that many were issued.
    private func printed(_ crashPoint: Int) -> ArraySlice<(afterOperations: Int, bytes: [UInt8])> {
        output.prefix { $0.afterOperations <= crashPoint }
    }

    /// The key of a distinct state.
    private func key(_ tree: ModelTree, _ crashPoint: Int) -> UInt64 {
        tree.hash &+ UInt64(printed(crashPoint).count) &* 0x9E37_79B9_7F4A_7C15
    }

    /// Writes the state out, if it is new, and hands it to a checker (waiting while every
    /// worker is busy).
    func submit(_ tree: ModelTree, crashPoint: Int) {
        let key = self.key(tree, crashPoint)
        guard lock.withLock({ submitted.insert(key).inserted }) else { return }
        count += 1
        let state = joinPath(scratch, "state-\(count)")
        let directory = state + modelRoot
        let outputFile = state + ".output-before-crash"
        do {
            try ExecModel.write(tree, at: modelRoot, to: directory)
            try Data(printed(crashPoint).flatMap(\.bytes)).write(to: URL(fileURLWithPath: outputFile))
        } catch {
            record(key, [Finding(.checkerError, "the state could not be written out for the checker: \(error.localizedDescription)")])
            return
        }
        slots.wait()
        group.enter()
        DispatchQueue.global().async { [self] in
            let findings = Self.run(check, directory: directory, outputFile: outputFile, said: state + ".said", timeout: timeout)
            record(key, findings)
            ExecModel.removeTree(state)
            try? FileManager.default.removeItem(atPath: state + ".said")
            try? FileManager.default.removeItem(atPath: outputFile)
            slots.signal()
            group.leave()
        }
    }

    /// Waits for every check handed out.
    func finish() { group.wait() }

    /// The verdict of the state `tree` holds after a crash once `crashPoint` operations were
    /// issued (after `finish`; a state never submitted is given to the checker now).
    func verdict(_ tree: ModelTree, crashPoint: Int) -> [Finding] {
        let key = self.key(tree, crashPoint)
        if let known = lock.withLock({ verdicts[key] }) { return known }
        submit(tree, crashPoint: crashPoint)
        finish()
        return lock.withLock { verdicts[key] } ?? []
    }

    private func record(_ key: UInt64, _ findings: [Finding]) {
        lock.withLock { verdicts[key] = findings }
    }

    /// Runs the checker on one state's directory.
    static func run(_ check: String, directory: String, outputFile: String, said: String, timeout: Double) -> [Finding] {
        guard FileManager.default.createFile(atPath: said, contents: nil),
            let sink = try? FileHandle(forWritingTo: URL(fileURLWithPath: said))
        else {
            return [Finding(.checkerError, "cannot keep what the checker says in \(said)")]
        }
        defer { try? sink.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", check, "sh", directory]
        var environment = ProcessInfo.processInfo.environment
        environment["SESSIONCTL_STATE_DIR"] = directory
        environment["SESSIONCTL_STATE_OUTPUT"] = outputFile
        process.environment = environment
        process.currentDirectoryURL = URL(fileURLWithPath: (directory as NSString).deletingLastPathComponent)
        process.standardInput = FileHandle.nullDevice
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
            // Asked to stop, then killed: a checker that ignores SIGTERM does not hold the run.
            process.terminate()
            if ended.wait(timeout: .now() + 2) == .timedOut {
                kill(process.processIdentifier, SIGKILL)
                _ = ended.wait(timeout: .now() + 10)
            }
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
