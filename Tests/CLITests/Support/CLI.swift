import Foundation

/// Runs the built `sessionctl` binary and captures what it did.
struct CLIResult {
    var status: Int32
    var stdout: String
    var stderr: String
    /// True when the program ran past its time limit and was terminated.
    var timedOut = false
}

enum CLI {
    /// The repository root (three levels above this file).
    static let repository: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A path inside the repository.
    static func path(_ relative: String) -> String { repository.appendingPathComponent(relative).path }

    /// Whether strace is installed, for the tests that count system calls.
    static var hasStrace: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/strace") }

    /// The reference corpus (sessions from an independent encoder, see Fixtures/corpus/README.md).
    static var corpus: String { path("Fixtures/corpus") }

    /// The sessionctl binary built next to the test bundle.
    static var binary: String {
        var directory = URL(fileURLWithPath: CommandLine.arguments.first ?? "").deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("sessionctl").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return repository.appendingPathComponent(".build/debug/sessionctl").path
    }

    /// Runs `sessionctl args...` with an optional standard input, without the crash backtracer.
    @discardableResult
    static func run(
        _ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:], in directory: String? = nil,
        timeout: Double? = nil
    ) throws -> CLIResult {
        try runProgram(binary, arguments, stdin: stdin, environment: environment, in: directory, timeout: timeout)
    }

    /// Runs any program and captures its status and output; past `timeout` seconds it is terminated
    /// (SIGTERM, then SIGKILL) and the result says it timed out.
    static func runProgram(
        _ program: String, _ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:], in directory: String? = nil,
        timeout: Double? = nil
    ) throws -> CLIResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["SWIFT_BACKTRACE"] = "enable=no"
        env["NO_COLOR"] = "1"
        for (key, value) in environment { env[key] = value }
        process.environment = env
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let out = Pipe()
        let err = Pipe()
        let input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        let expired = TimeoutFlag()
        if let timeout {
            let pid = process.processIdentifier
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [weak process] in
                guard let process, process.isRunning else { return }
                expired.set()
                kill(pid, SIGTERM)
                DispatchQueue.global().asyncAfter(deadline: .now() + 2) { if process.isRunning { kill(pid, SIGKILL) } }
            }
        }
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        // Read both pipes concurrently so a full pipe never blocks the child.
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return CLIResult(
            status: process.terminationStatus,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self),
            timedOut: expired.isSet)
    }

    /// A fresh temporary directory, removed by the caller.
    static func temporaryDirectory(_ label: String = "sessionctl-test") throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }
}

/// A flag set once from another thread.
final class TimeoutFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
