import Dispatch
import Foundation
@_spi(CrashTesting) import SessionStore
import Synchronization

#if canImport(Glibc)
    @_spi(CrashTesting) import FileSystemKit
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `crash-test --kill N`: runs the workload in a child process against a real temporary profile
/// directory and kills it N times in all (before chosen operations, and at random times), then
/// runs recovery on what is on disk and checks the simulator's oracles. Catches what a model
/// cannot: buffered writes never flushed, a truncate before a write, a temporary file promoted blindly.
public struct KillLoop: Sendable {
    public struct Configuration: Sendable {
        public var workload = BuiltInWorkloads.defaultName
        @_spi(CrashTesting) public var writeProtocol: WriteProtocol = .safe
        public var seed: UInt64 = 1
        public var kills = 20
        /// Children run at once.
        public var parallel = 2
        /// Where the runs happen; a new directory in the system's temporary directory when nil.
        public var directory: String?
        /// The program and arguments that run one child on a profile directory (`stopAt`: the
        /// operation to stop dead before, or nil to run to the end).
        public var childCommand: @Sendable (_ profile: String, _ stopAt: Int?) -> (program: String, arguments: [String])

        public init(childCommand: @escaping @Sendable (_ profile: String, _ stopAt: Int?) -> (program: String, arguments: [String])) {
            self.childCommand = childCommand
        }
    }

    /// A kill after which an oracle failed.
    public struct Failure: Sendable {
        public var oracle: OracleKind
        /// Every oracle that failed on the state (the first is `oracle`).
        public var oracles: [OracleKind]
        /// Operations completed before the kill (a kill at a random time is placed where the
        /// child was; nil only when that could not be told).
        public var crashAfter: Int?
        public var reproducer: String
        public var message: String
        /// Holds `crashed/` (the profile as the child left it) and `profile/` (after recovery).
        public var directory: String
    }

    /// What a kill loop found.
    public struct Report: Sendable {
        public var configuration: Configuration
        public var operations: Int
        public var acknowledgements: Int
        /// Kills delivered (a run that ended before its kill is checked but not counted).
        public var kills: Int
        /// Distinct on-disk states the kills left.
        public var distinct: Int
        public var failed: Int
        public var failuresByOracle: [OracleKind: Int]
        public var failures: [Failure]
        public var elapsedSeconds: Double
        /// Where failing runs are kept.
        public var directory: String
    }

    public let configuration: Configuration

    public init(configuration: Configuration) { self.configuration = configuration }

    /// The reproducer text of one kill.
    public func reproducer(_ kill: KillPlan.Kill) -> String {
        let base =
            "mode=kill;workload=\(configuration.workload);protocol=\(configuration.writeProtocol.rawValue);seed=\(configuration.seed)"
        switch kill {
        case .operation(let stopAt): return base + ";stop-at=\(stopAt)"
        case .time(let fraction): return base + ";time=\(String(format: "%.4f", fraction))"
        }
    }

    /// Runs the loop; `progress` hears the number of runs finished.
    public func run(progress: ((Int) -> Void)? = nil) throws(SimulatorError) -> Report {
        let start = DispatchTime.now()
        let workload = try WorkloadSource.load(configuration.workload)
        let recording = try WorkloadRecorder(writeProtocol: configuration.writeProtocol).record(workload)
        let plan = KillPlan(kills: configuration.kills, operations: recording.operations, seed: configuration.seed)
        let directory = try makeDirectory()
        // A full run first: it must count the same operations as the recording, and gives the time scale.
        let calibration: ChildRun
        do throws(SimulatorError) {
            calibration = try runChild(profile: joinPath(directory, "full", "profile"), kill: nil, duration: 0, start: recording.start)
            guard calibration.completed else {
                throw .childFailed(reason: "the child did not complete the workload: \(calibration.errors)")
            }
            guard calibration.operations == recording.operations.count else {
                throw .childFailed(
                    reason: "the child made \(calibration.operations) file operations, the recording \(recording.operations.count)")
            }
        } catch {
            DiskLoader.remove(directory)
            throw error
        }
        DiskLoader.remove(joinPath(directory, "full"))
        let duration = max(calibration.seconds, 0.001)

        let results = Mutex<[(Int, RunResult)]>([])
        let next = Mutex(0)
        let group = DispatchGroup()
        let loop = self
        for _ in 0..<max(1, min(configuration.parallel, plan.kills.count)) {
            group.enter()
            DispatchQueue.global().async {
                var judge = KillJudge(recording: recording, writeProtocol: configuration.writeProtocol)
                while true {
                    let number = next.withLock { value -> Int in
                        defer { value += 1 }
                        return value
                    }
                    guard number < plan.kills.count else { break }
                    let result = loop.runAndJudge(
                        number, plan.kills[number], directory: directory, duration: duration,
                        recording: recording, judge: &judge)
                    results.withLock { $0.append((number, result)) }
                }
                group.leave()
            }
        }
        while group.wait(timeout: .now() + .milliseconds(200)) == .timedOut {
            progress?(results.withLock { $0.count })
        }
        progress?(plan.kills.count)
        var report = Report(
            configuration: configuration, operations: recording.operations.count,
            acknowledgements: recording.acknowledgements.count, kills: 0, distinct: 0, failed: 0,
            failuresByOracle: [:], failures: [], elapsedSeconds: 0, directory: directory)
        var hashes = Set<UInt64>()
        for (_, result) in results.withLock({ $0 }).sorted(by: { $0.0 < $1.0 }) {
            if let error = result.error {
                DiskLoader.remove(directory)
                throw error
            }
            if result.killed { report.kills += 1 }
            hashes.insert(result.hash)
            guard let first = result.findings.first else { continue }
            report.failed += 1
            for oracle in Set(result.findings.map(\.oracle)) { report.failuresByOracle[oracle, default: 0] += 1 }
            var oracles: [OracleKind] = []
            for finding in result.findings where !oracles.contains(finding.oracle) { oracles.append(finding.oracle) }
            report.failures.append(
                Failure(
                    oracle: first.oracle, oracles: oracles, crashAfter: result.crashAfter,
                    reproducer: result.reproducer, message: first.message, directory: result.directory))
        }
        report.distinct = hashes.count
        if report.failed == 0 { DiskLoader.remove(directory) }
        report.elapsedSeconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        return report
    }

    struct RunResult: Sendable {
        var killed = false
        /// The kill as it landed: a random-time kill placed at the operation the child was at.
        var landed: KillPlan.Kill?
        var crashAfter: Int?
        var reproducer = ""
        var findings: [Finding] = []
        var hash: UInt64 = 0
        var directory = ""
        var error: SimulatorError?
    }

    /// One run: the child killed as planned, the state kept, recovery and the oracles.
    func runAndJudge(
        _ number: Int, _ kill: KillPlan.Kill, directory: String, duration: Double, recording: Recording,
        judge: inout KillJudge
    ) -> RunResult {
        var result = RunResult()
        result.reproducer = reproducer(kill)
        let runDirectory = joinPath(directory, "run-\(number + 1)")
        let profile = joinPath(runDirectory, "profile")
        do throws(SimulatorError) {
            var child = try runChild(profile: profile, kill: kill, duration: duration, start: recording.start)
            var attempts = 0
            var fraction: Double = if case .time(let value) = kill { value } else { 0 }
            while case .time = kill, child.completed, attempts < 4 {
                // The run ended before the kill: again, sooner.
                attempts += 1
                fraction /= 2
                DiskLoader.remove(runDirectory)
                child = try runChild(profile: profile, kill: .time(fraction: fraction), duration: duration, start: recording.start)
            }
            result.killed = child.killed
            if case .operation(let stopAt) = kill { result.crashAfter = stopAt }
            if case .time = kill, child.killed,
                let stopAt = try landing(profile: profile, recording: recording, scratch: runDirectory + "-probe")
            {
                result.crashAfter = stopAt
                result.landed = .operation(stopAt: stopAt)
                result.reproducer = reproducer(.operation(stopAt: stopAt))
            }
            let context = CrashContext(recording: recording, acknowledged: child.acknowledgements, running: child.running)
            try? DiskLoader.copyTree(profile, to: joinPath(runDirectory, "crashed"))
            let judged = judge.judge(profile: profile, context: context)
            result.findings = judged.findings
            result.hash = judged.hash
            result.directory = runDirectory
            if judged.findings.isEmpty { DiskLoader.remove(runDirectory) }
        } catch {
            result.error = error
        }
        return result
    }

    /// Where a child killed at a random time was, as the operation to stop at that leaves the same
    /// files: read from its `PositionBoard`; when it was inside an operation, whichever of "before
    /// it" and "after it" a stopped child reproduces (nil when neither does: a write cut short).
    func landing(profile: String, recording: Recording, scratch: String) throws(SimulatorError) -> Int? {
        guard let position = PositionBoard.position(at: PositionBoard.path(forProfile: profile)) else { return nil }
        if position.started <= position.completed { return position.completed }
        let killed = DiskLoader.fingerprint(profile)
        for candidate in [position.completed, position.completed + 1] where candidate <= recording.operations.count {
            defer { DiskLoader.remove(scratch) }
            let probe = joinPath(scratch, "profile")
            // A probe that cannot run leaves the landing unknown; it does not stop the loop.
            guard (try? runChild(profile: probe, kill: .operation(stopAt: candidate), duration: 0, start: recording.start)) != nil else {
                return nil
            }
            if DiskLoader.fingerprint(probe) == killed { return candidate }
        }
        return nil
    }

    /// What a child run said and how it ended.
    struct ChildRun {
        var killed = false
        var completed = false
        var acknowledgements = 0
        var running = false
        var operations = 0
        var seconds = 0.0
        var errors = ""
    }

    /// Runs one child on `profile` (created first as the recording's was: empty, or holding the
    /// damaged profile `start`), killing it as `kill` says.
    func runChild(profile: String, kill: KillPlan.Kill?, duration: Double, start: DamagedProfile?) throws(SimulatorError) -> ChildRun {
        do {
            try FileManager.default.createDirectory(atPath: profile, withIntermediateDirectories: true)
        } catch {
            throw .childFailed(reason: "cannot create \(profile): \(error.localizedDescription)")
        }
        if let start {
            do {
                try start.write(to: POSIXFileSystem(), profile: profile)
            } catch {
                throw .childFailed(reason: "cannot write the \(start.rawValue) profile into \(profile): \(error.description)")
            }
        }
        var stopAt: Int?
        if case .operation(let value) = kill { stopAt = value }
        let command = configuration.childCommand(profile, stopAt)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command.program)
        process.arguments = command.arguments
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        let started = DispatchTime.now()
        do {
            try process.run()
        } catch {
            throw .childFailed(reason: "cannot start \(command.program): \(error.localizedDescription)")
        }
        if case .time(let fraction) = kill {
            let delay = UInt32(max(0, min(fraction, 1)) * duration * 1_000_000)
            usleep(delay)
            SystemCall.killProcess(process.processIdentifier)
        }
        let said = output.fileHandleForReading.readDataToEndOfFile()
        let complaints = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        var run = ChildRun()
        run.seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        run.errors = String(decoding: complaints, as: UTF8.self)
        run.killed = process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
        for line in String(decoding: said, as: UTF8.self).split(separator: "\n") {
            let words = line.split(separator: " ")
            switch words.first {
            case "ack": run.acknowledgements += 1
            case "running": run.running = words.count > 1 && words[1] == "1"
            case "done":
                run.completed = true
                run.operations = words.count > 1 ? Int(words[1]) ?? 0 : 0
            default: break
            }
        }
        if !run.killed && !(process.terminationReason == .exit && process.terminationStatus == 0) {
            throw .childFailed(
                reason:
                    "the child exited with status \(process.terminationStatus): \(run.errors.trimmingCharacters(in: .whitespacesAndNewlines))"
            )
        }
        return run
    }

    private func makeDirectory() throws(SimulatorError) -> String {
        let base = configuration.directory ?? ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        let path = joinPath(base, "sessionctl-crash-test-\(getpid())-\(UInt32(truncatingIfNeeded: DispatchTime.now().uptimeNanoseconds))")
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw .childFailed(reason: "cannot create \(path): \(error.localizedDescription)")
        }
        return path
    }
}

extension KillLoop {
    /// A kill loop reproducer: `mode=kill;workload=W;protocol=P;seed=S;stop-at=Q` (or `time=F`).
    public struct Reproducer: Sendable, Equatable {
        public var workload: String
        @_spi(CrashTesting) public var writeProtocol: WriteProtocol
        public var seed: UInt64
        public var kill: KillPlan.Kill

        /// Parses the text form; nil when it is not a kill reproducer at all.
        public init?(text: String) throws(SimulatorError) {
            var fields: [String: String] = [:]
            for part in text.split(separator: ";") {
                guard let equals = part.firstIndex(of: "=") else { throw .invalidReproducer(text, reason: "'\(part)' is not key=value") }
                fields[String(part[..<equals])] = String(part[part.index(after: equals)...])
            }
            guard fields["mode"] == "kill" else { return nil }
            guard let workload = fields["workload"], !workload.isEmpty,
                let writeProtocol = fields["protocol"].flatMap(WriteProtocol.init(rawValue:)),
                let seed = fields["seed"].flatMap({ UInt64($0) })
            else {
                throw .invalidReproducer(text, reason: "a kill reproducer needs workload=, protocol= and seed=")
            }
            self.workload = workload
            self.writeProtocol = writeProtocol
            self.seed = seed
            if let stopAt = fields["stop-at"].flatMap({ Int($0) }), stopAt >= 0 {
                kill = .operation(stopAt: stopAt)
            } else if let fraction = fields["time"].flatMap({ Double($0) }), fraction >= 0, fraction <= 1 {
                kill = .time(fraction: fraction)
            } else {
                throw .invalidReproducer(text, reason: "a kill reproducer needs stop-at=N or time=F")
            }
        }
    }

    /// What replaying a kill found.
    public struct ReplayOutcome: Sendable {
        public var findings: [Finding]
        /// The run's directory, kept when an oracle fails.
        public var directory: String?
        /// The kill as it landed (a kill at a random time placed at an operation, when it could be).
        public var landed: KillPlan.Kill
        public var operations: Int
        public var acknowledgements: Int
        public var elapsedSeconds: Double
    }

    /// Runs the one kill of a reproducer (a kill at a random time comes at about the same point,
    /// and is placed at the operation it landed on); the run's directory is kept when an oracle fails.
    public func replay(_ kill: KillPlan.Kill) throws(SimulatorError) -> ReplayOutcome {
        let start = DispatchTime.now()
        let workload = try WorkloadSource.load(configuration.workload)
        let recording = try WorkloadRecorder(writeProtocol: configuration.writeProtocol).record(workload)
        if case .operation(let stopAt) = kill, stopAt > recording.operations.count {
            throw .invalidReproducer(
                reproducer(kill), reason: "stop-at=\(stopAt) is past the workload's \(recording.operations.count) operations")
        }
        let directory = try makeDirectory()
        var duration = 1.0
        if case .time = kill {
            duration = try runChild(profile: joinPath(directory, "full", "profile"), kill: nil, duration: 0, start: recording.start).seconds
            DiskLoader.remove(joinPath(directory, "full"))
        }
        var judge = KillJudge(recording: recording, writeProtocol: configuration.writeProtocol)
        let result = runAndJudge(0, kill, directory: directory, duration: duration, recording: recording, judge: &judge)
        if let error = result.error { throw error }
        if result.findings.isEmpty { DiskLoader.remove(directory) }
        return ReplayOutcome(
            findings: result.findings, directory: result.findings.isEmpty ? nil : result.directory,
            landed: result.landed ?? kill, operations: recording.operations.count,
            acknowledgements: recording.acknowledgements.count,
            elapsedSeconds: Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9)
    }
}
