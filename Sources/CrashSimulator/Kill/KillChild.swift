@_spi(CrashTesting) import SessionStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The child process of `crash-test --kill`: runs a workload against the store on a real profile
/// directory, through a `KillSwitchFileSystem`, and tells its parent what completed, one line at a
/// time on standard output, unbuffered: `running 1` once launched (`running 0` when the app stops
/// running), `ack N` after each completed save, `done OPS` at the end; and where it is in its file
/// operations on a `PositionBoard` beside the profile.
public enum KillChild {
    /// Runs the workload; returns when it completed (unless it was told to stop dead before).
    @_spi(CrashTesting) public static func run(workload: Workload, writeProtocol: WriteProtocol, profile: String, stopAt: Int?) throws {
        let fileSystem = KillSwitchFileSystem(stopAt: stopAt, boardPath: PositionBoard.path(forProfile: profile))
        let driver = WorkloadDriver(workloadName: workload.name, fileSystem: fileSystem, profile: profile, writeProtocol: writeProtocol)
        driver.onSave = { record in say("ack \(record.sequence)") }
        driver.onRunning = { running in say("running \(running ? 1 : 0)") }
        for step in workload.steps {
            do {
                try driver.perform(step.event)
            } catch let error as SimulatorError {
                throw error
            } catch {
                throw SimulatorError.storeFailed(event: step.text, reason: "\(error)")
            }
            if let failure = driver.failure { throw SimulatorError.storeFailed(event: step.text, reason: failure) }
        }
        say("done \(fileSystem.performed)")
    }

    /// Writes one line to standard output at once (a pipe to the parent).
    static func say(_ line: String) {
        var bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { write(1, $0.baseAddress! + offset, $0.count - offset) }
            if written <= 0 { break }
            offset += written
        }
    }
}
