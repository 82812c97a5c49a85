import ArgumentParser
@_spi(CrashTesting) import CrashSimulator
import Foundation
import SessionFormats
@_spi(CrashTesting) import SessionStore

extension SessionCtl {
    /// `sessionctl crash-test`: simulates crashes at every point of a save workload and checks that
    /// recovery loses nothing.
    struct CrashTest: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "crash-test",
            abstract:
                "Crash the session store at every point of a workload and check that recovery loses nothing (--exec: any program's file writes).",
            discussion: """
                Runs a workload of browser events against the session store on a recording file \
                system, then builds every crash state the persistence model allows (prefixes, lost \
                and reordered unsynced operations, torn writes and renames, torn sectors) and checks \
                each after recovery: atomicity, durability after an acknowledged save, no collateral \
                loss under Chrome's loading rules, every window Chrome would load still live, \
                incognito privacy, recovery, crashes during \
                recovery counted toward the crash-loop guard, hygiene. Exits 1 when \
                any state fails, 3 when --max-states stopped the run first (it is incomplete), 0 \
                otherwise; every failing state is listed with a reproducer for --replay. --shard K/N \
                splits the run's partitions: N shards add up exactly to one whole run. With --kill N, \
                runs the workload in a child process on a real directory and kills it N times \
                instead; a kill at a random time is reported at the file operation it landed on.
                With --store firefox-ios, the workload runs on a model of Firefox for iOS's tab store \
                instead (its throttled save with a backup copy, its forced save, its load from the \
                window file, then the backup), and each state is judged by what Firefox loads: the \
                last save that returned or a later one, an earlier one, or nothing of a window. \
                With --store firefox-desktop, on a model of Firefox desktop's session store (recovery \
                rotated to its backup and replaced through a temporary file every 15 seconds, the \
                clean file written at shutdown and the recovery files removed, its five-file load \
                order at launch), judged the same way. \
                With --store chromium-desktop, on a model of Chromium desktop's session service \
                (commands appended to the open Session_ file 2.5 seconds after the first change and \
                at shutdown, without a flush unless the protocol says so; a reset at each launch and \
                after 250 commands writes a new file with the full state and the marker, then \
                deletes the file of two resets before; a launch deletes every file but the one it \
                restores), each state judged by what Chrome restores: as far as the last batch that \
                returned, less, or nothing.
                With --exec --dir DIR --check 'CMD' -- PROGRAM ARGS..., any program's file writes are \
                crash-tested instead: PROGRAM runs once under strace in a private copy of DIR, its \
                calls on the files there are rebuilt (and checked against what it left), and every \
                crash state is written out and given to CMD ($1 and SESSIONCTL_STATE_DIR; what the \
                program printed before the crash in SESSIONCTL_STATE_OUTPUT): exit 0 consistent, 1 a \
                violation. The verdict groups failures by what led to them and names the first \
                unsafe step.
                Built-in workloads: \(BuiltInWorkloads.names.joined(separator: ", ")). \
                Protocols: \(WriteProtocol.allCases.map(\.rawValue).joined(separator: ", ")); \
                \(BrowserStores.all.map { "of the \($0.name) store: \($0.protocolNames.joined(separator: ", "))" }.joined(separator: "; ")).
                """
        )

        @Option(
            name: .long, help: ArgumentHelp("A built-in workload or a workload file.", valueName: "name|file"),
            completion: .custom { _, _, _ in
                BuiltInWorkloads.names
                    + ((try? FileManager.default.contentsOfDirectory(atPath: ".")) ?? []).filter { $0.hasSuffix(".workload") }
            })
        var workload: String = BuiltInWorkloads.defaultName

        @Option(
            name: .long,
            help: ArgumentHelp(
                "Start the workload from a copy of this profile (damaged, legacy, with incognito or inactive windows) instead of an empty one.",
                valueName: "profile"),
            completion: .directory)
        var from: String?

        @Option(
            name: .long, help: ArgumentHelp("Persistence model: process or pessimistic.", valueName: "model"),
            completion: .list(PersistenceModel.allCases.map(\.rawValue)))
        var model: String = PersistenceModel.pessimistic.rawValue

        @Option(
            name: .customLong("protocol"),
            help: ArgumentHelp(
                "Write protocol under test: safe (the default), in-place, no-fsync, foundation-atomic, chrome, strange-temp, exit-marker-first, no-incognito-wipe, lazy-background, early-ack, no-kept-copy, debounced-save, unsynced-set-aside, unsynced-sweep, unsynced-backup, broad-sweep, uncounted-launch-crash, early-running-mark or drops-backed-up-session;\(BrowserStores.all.map { store in " with --store \(store.name), \(store.defaultProtocol) (the default)\(store.protocolNames.filter { $0 != store.defaultProtocol }.map { ", \($0)" }.joined())" }.joined(separator: ";")).",
                valueName: "name"),
            completion: .list(
                WriteProtocol.allCases.map(\.rawValue)
                    + BrowserStores.all.flatMap(\.protocolNames).reduce(into: [String]()) { names, name in
                        if !names.contains(name) { names.append(name) }
                    }))
        var writeProtocol: String?

        @Option(
            name: .long,
            help: ArgumentHelp(
                "The store the workload runs on: sessionctl (the default: sessionctl's own store of Chrome for iOS sessions), firefox-ios, firefox-desktop or chromium-desktop (models of Firefox for iOS's, Firefox desktop's and Chromium desktop's, from their code).",
                valueName: "name"),
            completion: .list(["sessionctl"] + BrowserStore.names))
        var store: String = "sessionctl"

        /// The protocol of sessionctl's store (`--protocol`, `safe` when not given).
        private var chromeProtocol: WriteProtocol { WriteProtocol(rawValue: writeProtocol ?? "") ?? .safe }

        @Option(name: .long, help: ArgumentHelp("Stop after exploring this many states.", valueName: "n"))
        var maxStates: Int = 2_000_000

        @Option(
            name: .long,
            help: ArgumentHelp(
                "Seed of the sampling of large sets of unsynced operations, of garbage bytes and of kill times.", valueName: "n"))
        var seed: UInt64 = 1

        @Option(
            name: .long,
            help: ArgumentHelp(
                "Crash each recovery at a seeded sample of about n of its points instead of every one (n >= \(RecoveryCrashPoints.smallestSample); more when it takes more kinds of step, each crashed after at least once); the report counts the points left out.",
                valueName: "n"))
        var recoveryCrashSample: Int?

        @Flag(
            name: .customLong("no-shortcuts"),
            help: ArgumentHelp(
                "Explore without the checker's shortcuts: nothing remembered between states, every file read, every recovery run whole by the store (slow; the same states, verdicts and reproducers, which is what it is for)."
            ))
        var noShortcuts = false

        @Option(
            name: .long,
            help: ArgumentHelp("Explore only shard K of N (for a CI matrix): N shards add up to one whole run.", valueName: "k/n"))
        var shard: String = "1/1"

        @Option(
            name: .long,
            help: ArgumentHelp(
                "List at most n failing states (the rest are counted in failuresOmitted); JSON lists up to 10000, text 20, unless given.",
                valueName: "n"))
        var maxFailures: Int?

        @Flag(name: .long, help: "No progress on standard error.")
        var quiet = false

        @Option(
            name: .long,
            help: ArgumentHelp("Check the one crash state of a reproducer printed by an earlier run.", valueName: "reproducer"),
            completion: .none)
        var replay: String?

        @Option(
            name: .long,
            help: ArgumentHelp(
                "Instead of simulating, run the workload in a child process on a real temporary profile and kill it n times (before chosen file operations and at random times), then recover and check.",
                valueName: "n"))
        var kill: Int?

        @Flag(name: .customLong("kill-child"), help: .hidden)
        var killChild = false

        @Option(name: .customLong("kill-profile"), help: .hidden)
        var killProfile: String?

        @Option(name: .customLong("kill-stop-at"), help: .hidden)
        var killStopAt: Int?

        @Option(
            name: .long,
            help: ArgumentHelp(
                "Crash-test a sessionctl command instead of the store: repair, migrate, aside-push, aside-restore, aside-drop, import, compress, decompress or report, run on a copy of --input.",
                valueName: "name"))
        var command: String?

        @Option(
            name: .long,
            help: ArgumentHelp(
                "The profile directory the --command runs on (for import, the inspect JSON document; for decompress, a bundle made by compress).",
                valueName: "path"),
            completion: .file())
        var input: String?

        @Flag(
            name: .long,
            help: ArgumentHelp(
                "Crash-test any program's file writes: run PROGRAM under strace in a private copy of --dir, then judge every crash state of its writes with --check."
            ))
        var exec = false

        @Option(
            name: .long,
            help: ArgumentHelp(
                "With --exec: the directory the program writes (copied; the copy is its working directory).", valueName: "dir"),
            completion: .directory)
        var dir: String?

        @Option(
            name: .long,
            help: ArgumentHelp(
                "With --exec: the checker, run by the shell on each crash state with the state's directory as its argument ($1) and in SESSIONCTL_STATE_DIR, and the program's output up to the crash in the file named by SESSIONCTL_STATE_OUTPUT; exit 0 consistent, 1 a violation, else a checker error.",
                valueName: "command"))
        var check: String?

        @Option(
            name: .long,
            help: ArgumentHelp(
                "With --exec: write each listed failing state into this directory (state-1, ...), to open.", valueName: "dir"),
            completion: .directory)
        var keep: String?

        @Flag(
            name: .long,
            help: ArgumentHelp(
                "With --exec and the pessimistic model: let a rename reach the disk in parts (destination gone, source still there), as on a file system that does not journal it; by default a rename is lost or done whole."
            ))
        var splitRenames = false

        @Option(name: .long, help: ArgumentHelp("With --exec: seconds the checker is given on one state.", valueName: "s"))
        var checkTimeout: Double = 60

        @Argument(
            parsing: .postTerminator, help: ArgumentHelp("With --exec: the program and its arguments, after --.", valueName: "program"))
        var program: [String] = []

        @OptionGroup var output: FormatOption

        func validate() throws {
            if exec {
                guard let dir, !dir.isEmpty else { throw ValidationError("--exec needs --dir DIR, the directory the program writes") }
                guard let check, !check.isEmpty else {
                    throw ValidationError("--exec needs --check 'CMD', the checker of each crash state")
                }
                guard !program.isEmpty else {
                    throw ValidationError(
                        "--exec needs the program to run after --: crash-test --exec --dir DIR --check CMD -- PROGRAM ARGS...")
                }
                guard command == nil, kill == nil, replay == nil, from == nil, store == "sessionctl", shard == "1/1",
                    recoveryCrashSample == nil
                else {
                    throw ValidationError(
                        "--exec runs a program alone: not with --command, --kill, --replay, --from, --store, --shard or --recovery-crash-sample"
                    )
                }
                guard checkTimeout > 0 else { throw ValidationError("--check-timeout must be more than 0") }
            } else if dir != nil || check != nil || keep != nil || splitRenames || !program.isEmpty {
                throw ValidationError("--dir, --check, --keep, --split-renames and a program after -- are for --exec")
            }
            guard PersistenceModel(rawValue: model) != nil else {
                throw ValidationError("--model must be one of: \(PersistenceModel.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            switch store {
            case "sessionctl":
                if let writeProtocol, WriteProtocol(rawValue: writeProtocol) == nil {
                    throw ValidationError("--protocol must be one of: \(WriteProtocol.allCases.map(\.rawValue).joined(separator: ", "))")
                }
            default:
                let known: BrowserStore?
                do throws(BrowserStore.UnknownProtocol) {
                    known = try BrowserStore(name: store, protocolName: writeProtocol)
                } catch {
                    throw ValidationError("--protocol of the \(store) store must be one of: \(error.known.joined(separator: ", "))")
                }
                guard known != nil else {
                    let names = ["sessionctl"] + BrowserStore.names
                    throw ValidationError("--store must be \(names.dropLast().joined(separator: ", ")) or \(names[names.count - 1])")
                }
                guard command == nil, kill == nil, from == nil, shard == "1/1", recoveryCrashSample == nil else {
                    throw ValidationError(
                        "--store \(store) runs a simulated workload alone: not with --command, --kill, --from, --shard or --recovery-crash-sample"
                    )
                }
            }
            guard maxStates >= 1 else { throw ValidationError("--max-states must be at least 1") }
            if let recoveryCrashSample {
                guard recoveryCrashSample >= RecoveryCrashPoints.smallestSample else {
                    throw ValidationError("--recovery-crash-sample must be at least \(RecoveryCrashPoints.smallestSample)")
                }
                guard command == nil, kill == nil, replay == nil else {
                    throw ValidationError("--recovery-crash-sample applies to a simulated run: not with --command, --kill or --replay")
                }
            }
            if noShortcuts, command != nil || kill != nil || replay != nil {
                throw ValidationError("--no-shortcuts applies to a simulated run: not with --command, --kill or --replay")
            }
            if let maxFailures { guard maxFailures >= 0 else { throw ValidationError("--max-failures must be 0 or more") } }
            guard ExplorationOptions.parseShard(shard) != nil else {
                throw ValidationError(
                    "--shard must be K/N with 1 <= K <= N <= \(ExplorationOptions.maxShards) (a run has \(ExplorationOptions.maxShards) partitions)"
                )
            }
            if let kill { guard (1...100_000).contains(kill) else { throw ValidationError("--kill must be between 1 and 100000") } }
            if killChild { guard killProfile != nil else { throw ValidationError("--kill-child needs --kill-profile") } }
            if let command {
                guard ProfileCommand(rawValue: command) != nil else {
                    throw ValidationError("--command must be one of: \(ProfileCommand.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                guard input != nil else { throw ValidationError("--command needs --input PATH") }
                guard kill == nil, shard == "1/1" else { throw ValidationError("--command runs alone: without --kill or --shard") }
            } else if input != nil {
                throw ValidationError("--input is the input of --command")
            }
            if from != nil, command != nil || kill != nil {
                throw ValidationError("--from starts a simulated workload from a profile: not with --command or --kill")
            }
        }

        func run() throws {
            if exec, let dir, let check {
                try runExec(dir: dir, check: check)
                return
            }
            if killChild {
                try KillChild.run(
                    workload: WorkloadSource.load(workload), writeProtocol: chromeProtocol,
                    profile: killProfile ?? "", stopAt: killStopAt)
                return
            }
            if let replay, let killReproducer = try KillLoop.Reproducer(text: replay) {
                try runKillReplay(killReproducer)
                return
            }
            if let replay {
                try runReplay(replay)
                return
            }
            if let kill {
                try runKillLoop(kills: kill)
                return
            }
            if let command = command.flatMap(ProfileCommand.init(rawValue:)), let input {
                try runCommand(command, input: input)
                return
            }
            if let browserStore = try? BrowserStore(name: store, protocolName: writeProtocol) {
                try runStore(browserStore)
                return
            }
            var configuration = CrashSimulator.CrashTest.Configuration()
            configuration.workload = workload
            configuration.startingProfile = from
            configuration.model = PersistenceModel(rawValue: model) ?? .pessimistic
            configuration.writeProtocol = chromeProtocol
            configuration.exploration.seed = seed
            configuration.exploration.maxStates = maxStates
            configuration.exploration.shard = ExplorationOptions.parseShard(shard) ?? (1, 1)
            configuration.exploration.keptFailures = max(maxFailures ?? ExplorationOptions.defaultKeptFailures, 1)
            configuration.exploration.recoveryCrashSample = recoveryCrashSample
            configuration.exploration.takesShortcuts = !noShortcuts
            configuration.exploration.threads = min(max(ProcessInfo.processInfo.activeProcessorCount, 1), 8)
            let progress = ProgressLine(quiet: quiet)
            let started = Date()
            let report = try CrashSimulator.CrashTest(configuration: configuration).run(reporting: { now in
                progress.show(CrashTestText.progress(now, elapsed: Date().timeIntervalSince(started)))
            })
            progress.clear()
            try finish(CrashTestDocument.fields(report, maxFailures: maxFailures))
        }

        /// Crash-tests a program's writes to `dir`, judged by `check`.
        private func runExec(dir: String, check: String) throws {
            var configuration = ExecCrashTest.Configuration(program: program, directory: dir, check: check)
            configuration.model = PersistenceModel(rawValue: model) ?? .pessimistic
            configuration.seed = seed
            configuration.maxStates = maxStates
            configuration.keptFailures = max(maxFailures ?? ExplorationOptions.defaultKeptFailures, 1)
            configuration.checkTimeout = checkTimeout
            configuration.keep = keep
            configuration.splitsRenames = splitRenames
            let progress = ProgressLine(quiet: quiet)
            let report = try ExecCrashTest(configuration: configuration).run(progress: { explored in
                progress.show("crash-test: \(program.first ?? "program"): \(explored) states")
            })
            progress.clear()
            try finish(CrashTestDocument.fields(report, maxFailures: maxFailures))
        }

        /// Crash-tests a sessionctl command on a copy of `input`.
        private func runCommand(_ command: ProfileCommand, input: String) throws {
            var configuration = CommandCrashTest.Configuration(command: command, input: input)
            configuration.model = PersistenceModel(rawValue: model) ?? .pessimistic
            configuration.writeProtocol = chromeProtocol
            configuration.seed = seed
            configuration.maxStates = maxStates
            configuration.keptFailures = max(maxFailures ?? ExplorationOptions.defaultKeptFailures, 1)
            let progress = ProgressLine(quiet: quiet)
            let report = try CommandCrashTest(configuration: configuration).run(progress: { explored in
                progress.show("crash-test: \(command.rawValue): \(explored) states")
            })
            progress.clear()
            try finish(CrashTestDocument.fields(report, maxFailures: maxFailures))
        }

        /// Crash-tests the model of a browser's session store.
        private func runStore(_ browserStore: BrowserStore) throws {
            let progress = ProgressLine(quiet: quiet)
            let show = { (explored: Int) in progress.show("crash-test: \(browserStore.name) store: \(explored) states") }
            var settings = StoreRunSettings()
            settings.workload = workload
            settings.model = PersistenceModel(rawValue: model) ?? .pessimistic
            settings.seed = seed
            settings.maxStates = maxStates
            settings.keptFailures = max(maxFailures ?? ExplorationOptions.defaultKeptFailures, 1)
            settings.maxFailures = maxFailures
            settings.takesShortcuts = !noShortcuts
            let fields = try browserStore.model.run(protocolName: browserStore.protocolName, settings: settings, progress: show)
            progress.clear()
            try finish(fields)
        }

        /// Prints a run's document and exits as the run went: 1 on failures, 3 when incomplete.
        private func finish(_ fields: CrashTestDocument.Fields) throws {
            switch output.format {
            case .json: Output.document(CrashTestDocument.encode(fields))
            case .text: CrashTestText.print(fields, shown: maxFailures ?? 20)
            }
            if fields.failed > 0 { throw CommandFailure.exit(ExitStatus.findings) }
            if fields.truncated {
                Output.error(
                    "crash-test: stopped by --max-states after \(fields.explored) states, before exploring every crash state: the run is incomplete (exit 3)"
                )
                throw CommandFailure.exit(ExitStatus.incomplete)
            }
        }

        /// The loop's configuration: children are this very program in child mode.
        private func killConfiguration(workload: String, writeProtocol: WriteProtocol, seed: UInt64) -> KillLoop.Configuration {
            let program = CrashTest.currentExecutable()
            var configuration = KillLoop.Configuration { profile, stopAt in
                var arguments = [
                    "crash-test", "--kill-child", "--kill-profile", profile, "--workload", workload, "--protocol", writeProtocol.rawValue
                ]
                if let stopAt { arguments += ["--kill-stop-at", String(stopAt)] }
                return (program, arguments)
            }
            configuration.workload = workload
            configuration.writeProtocol = writeProtocol
            configuration.seed = seed
            configuration.parallel = min(max(ProcessInfo.processInfo.activeProcessorCount, 1), 4)
            return configuration
        }

        /// The path of the running program.
        static func currentExecutable() -> String {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        }

        private func runKillLoop(kills: Int) throws {
            var configuration = killConfiguration(
                workload: workload, writeProtocol: chromeProtocol, seed: seed)
            configuration.kills = kills
            let progress = ProgressLine(quiet: quiet)
            let report = try KillLoop(configuration: configuration).run { progress.show("\($0) of \(kills) runs") }
            progress.clear()
            try finish(CrashTestDocument.fields(report, maxFailures: maxFailures))
        }

        private func runKillReplay(_ reproducer: KillLoop.Reproducer) throws {
            let configuration = killConfiguration(
                workload: reproducer.workload, writeProtocol: reproducer.writeProtocol, seed: reproducer.seed)
            let loop = KillLoop(configuration: configuration)
            let outcome = try loop.replay(reproducer.kill)
            let text = loop.reproducer(outcome.landed)
            var crashAfter = -1
            if case .operation(let stopAt) = outcome.landed { crashAfter = stopAt }
            switch output.format {
            case .json:
                var fields = CrashTestDocument.Fields(
                    workload: reproducer.workload, model: PersistenceModel.process.rawValue,
                    writeProtocol: reproducer.writeProtocol.rawValue,
                    mode: "kill", seed: reproducer.seed, shard: "1/1", operations: outcome.operations, acks: outcome.acknowledgements,
                    explored: 1, unique: 1, failed: outcome.findings.isEmpty ? 0 : 1, truncated: false,
                    elapsedSeconds: outcome.elapsedSeconds, failuresByOracle: [:],
                    failures: outcome.findings.first.map {
                        [
                            CrashTestDocument.Failure(
                                oracle: $0.oracle, oracles: CrashTestDocument.oracles(outcome.findings), crashAfter: crashAfter,
                                reproducer: text, message: $0.message, directory: outcome.directory)
                        ]
                    } ?? [],
                    kills: 1)
                for oracle in CrashTestDocument.oracles(outcome.findings) { fields.failuresByOracle[oracle, default: 0] += 1 }
                Output.document(CrashTestDocument.encode(fields))
            case .text:
                Output.line("replaying \(loop.reproducer(reproducer.kill))")
                if text != loop.reproducer(reproducer.kill) { Output.line("the kill landed after operation \(crashAfter): \(text)") }
                if outcome.findings.isEmpty { Output.line("no oracle fails on this state") }
                for finding in outcome.findings { Output.line("FAIL \(finding.oracle.rawValue): \(finding.message)") }
                if let directory = outcome.directory { Output.line("on-disk state kept in \(directory)") }
            }
            if !outcome.findings.isEmpty { throw CommandFailure.exit(ExitStatus.findings) }
        }

        private func runReplay(_ text: String) throws {
            let started = Date()
            let reproducer = try Reproducer(text: text)
            let outcome = try Replayer().replay(reproducer)
            switch output.format {
            case .json:
                let failures =
                    outcome.findings.first.map {
                        [
                            CrashTestDocument.Failure(
                                oracle: $0.oracle, oracles: CrashTestDocument.oracles(outcome.findings),
                                crashAfter: reproducer.state.crashPoint, reproducer: reproducer.text, message: $0.message)
                        ]
                    } ?? []
                var fields = CrashTestDocument.Fields(
                    workload: reproducer.workload, model: reproducer.model.rawValue,
                    writeProtocol: reproducer.store?.protocolName ?? reproducer.writeProtocol.rawValue,
                    mode: reproducer.store == nil ? "simulated" : "store",
                    seed: reproducer.seed, shard: "1/1",
                    operations: outcome.operations, acks: outcome.acknowledgements,
                    explored: 1, unique: 1, failed: outcome.findings.isEmpty ? 0 : 1, truncated: false,
                    elapsedSeconds: Date().timeIntervalSince(started), failuresByOracle: [:], failures: failures)
                if let store = reproducer.store { fields.browser = store.name }
                for oracle in CrashTestDocument.oracles(outcome.findings) { fields.failuresByOracle[oracle, default: 0] += 1 }
                var document = CrashTestDocument.encode(fields)
                if case .object(var members) = document {
                    members.append(("crashAfter", .int(Int64(reproducer.state.crashPoint))))
                    document = .object(members)
                }
                Output.document(document)
            case .text:
                Output.line("replaying \(reproducer.text)")
                for line in outcome.explanation { Output.line(line) }
                if outcome.findings.isEmpty { Output.line("no oracle fails on this state") }
                for finding in outcome.findings { Output.line("FAIL \(finding.oracle.rawValue): \(finding.message)") }
            }
            if !outcome.findings.isEmpty { throw CommandFailure.exit(ExitStatus.findings) }
        }
    }
}
