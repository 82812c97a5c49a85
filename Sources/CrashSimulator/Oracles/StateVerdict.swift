/// What the oracles found on one crash state, independent of when the crash happened: the
/// context-free findings, plus what the context-dependent oracles (durability, privacy, crash
/// detection) need to decide for a given crash point.
public final class StateVerdict: Sendable {
    /// Findings that hold whenever this state occurs (atomicity, collateral loss, hygiene, recovery).
    public let findings: [Finding]
    /// The restored state is version `floor.version` or newer (see `DurabilityOracle`).
    let floor: DurabilityOracle.Floor
    /// Privacy groups whose strings are on disk (before or after recovery).
    let privacyFound: UInt64
    /// Where (a path and the string) each privacy group was found: every group found after
    /// recovery, and before it the groups the judge was asked to detail (those a state of its
    /// partition can have had acknowledged, the only ones a finding names).
    let privacyDetails: [Int: String]
    /// Whether recovery noticed the crash (nil when it failed).
    let detectedCrash: Bool?
    /// How recovery accounted for crashes during restore (nil when it failed or does not say).
    let account: RestoreCrashAccount?
    /// Crash states of recovery itself (after `steps` of its operations, the last possibly torn).
    let recoveryCrashes: [(state: RecoveryCrash, verdict: StateVerdict)]

    /// A crash during recovery: after `steps` of its operations, the next one (a write) cut
    /// after `cut` bytes; under the pessimistic model, with those of its unsynced operations that
    /// `keep` does not keep lost (nil: all kept) and one of them torn (`tear`; operations
    /// numbered from 0 within recovery).
    struct RecoveryCrash: Sendable, Hashable {
        var steps: Int
        var cut: Int?
        var keep: Selection? = nil
        var tear: Tear? = nil
        /// Findings on what the next launch made of this crash (`CrashLoopCountOracle`): they
        /// depend on where in the interrupted recovery it came, not on the state alone.
        var findings: [Finding] = []
    }

    init(
        findings: [Finding], floor: DurabilityOracle.Floor, privacyFound: UInt64, privacyDetails: [Int: String],
        detectedCrash: Bool?, account: RestoreCrashAccount? = nil, recoveryCrashes: [(state: RecoveryCrash, verdict: StateVerdict)]
    ) {
        self.findings = findings
        self.floor = floor
        self.privacyFound = privacyFound
        self.privacyDetails = privacyDetails
        self.detectedCrash = detectedCrash
        self.account = account
        self.recoveryCrashes = recoveryCrashes
    }

    /// The findings of this state (not of its recovery crashes) at a crash point with `context`.
    func findings(in context: CrashContext) -> [Finding] {
        var result = findings
        if context.requiredVersion >= 0 && floor.version < context.requiredVersion {
            result.append(
                Finding(
                    .durability,
                    "\(context.acknowledgement) was acknowledged (version \(context.requiredVersion)), but after recovery \(floor.detail) (version \(floor.version))"
                ))
        }
        if let finding = PrivacyOracle.check(
            found: privacyFound, acknowledged: context.privacyGroups, detail: { privacyDetails[$0] ?? "incognito data remains" })
        {
            result.append(finding)
        }
        if let detectedCrash,
            let finding = RecoveryOracle.checkDetection(
                RecoveryOutcome(detectedCrash: detectedCrash, restored: [:], changes: []), expected: context.appWasRunning)
        {
            result.append(finding)
        }
        // The simulator knows the crash fell inside a launch's restore: the store must count it.
        if let event = context.insideRestore, let account, !account.countsRestoreCrash {
            result.append(
                Finding(
                    .crashLoopCount,
                    "the app crashed inside the restore of '\(event)', before it was up: the next launch reports \(account), but the crash-loop guard must count a crash during restore"
                ))
        }
        return result + context.brokenPromises
    }
}

/// What is known at a crash point: the acknowledged saves before it.
struct CrashContext: Sendable {
    /// The version the last acknowledged save made durable (-1: none).
    var requiredVersion: Int
    /// That save, described.
    var acknowledgement: String
    /// Privacy groups whose close-all-incognito was acknowledged.
    var privacyGroups: UInt64
    /// Whether the app was running (so recovery must notice a crash).
    var appWasRunning: Bool
    /// Save promises found broken at the acknowledgement this crash point follows.
    var brokenPromises: [Finding] = []
    /// The workload event whose restore this crash point falls inside (nil: none). A state whose
    /// recovery crashed too is judged by `CrashLoopCountOracle` instead (`forRecoveryCrash`).
    var insideRestore: String?

    /// The context of a state whose recovery crashed as well: its next launch follows the
    /// recovery, not the workload's launch, so what the workload's launch counts is not asked.
    var forRecoveryCrash: CrashContext {
        var context = self
        context.insideRestore = nil
        return context
    }

    init(requiredVersion: Int, acknowledgement: String, privacyGroups: UInt64, appWasRunning: Bool) {
        self.requiredVersion = requiredVersion
        self.acknowledgement = acknowledgement
        self.privacyGroups = privacyGroups
        self.appWasRunning = appWasRunning
    }

    /// The context of a kill: the child had seen `acknowledged` saves complete, and was running or not.
    init(recording: Recording, acknowledged: Int, running: Bool) {
        let acks = recording.acknowledgements.prefix(acknowledged)
        requiredVersion = acks.last?.version ?? -1
        acknowledgement = acks.last?.label ?? "no save"
        privacyGroups = acks.reduce(0) { mask, ack in ack.privacyGroup.map { mask | UInt64(1) << UInt64($0) } ?? mask }
        appWasRunning = running
    }

    init(recording: Recording, crashPoint: Int) {
        let acks = recording.acknowledgements(before: crashPoint)
        requiredVersion = acks.last?.version ?? -1
        acknowledgement = acks.last?.label ?? "no save"
        privacyGroups = acks.reduce(0) { mask, ack in ack.privacyGroup.map { mask | UInt64(1) << UInt64($0) } ?? mask }
        appWasRunning = crashPoint > 0 && crashPoint <= recording.running.count && recording.running[crashPoint - 1]
        brokenPromises = recording.contract[crashPoint] ?? []
        insideRestore = recording.restores.first { $0.crashPoints.contains(crashPoint) }?.event
    }
}
