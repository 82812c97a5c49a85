import FileSystemKit
import SessionFormats
import SessionModel
import SessionStore

/// Finishes or undoes what an interrupted repair left (see `RepairExecutor`), through the
/// store's `InterruptedCommands`, which the store's launch runs too: a staged session directory
/// beside a live one is removed (the write did not finish, the original is untouched); a staged
/// directory whose live place is empty is renamed into it (the write had finished and the
/// original is set aside); a directory the intent record names that is neither gets its original back.
struct RepairResumption {
    /// The prefix of a staged session directory's name.
    static let stagingPrefix = InterruptedCommands.repairStagingPrefix

    /// Sets aside and restores; its writer is the only way to the disk.
    let aside: Aside
    var writer: AtomicWriter { aside.writer }
    /// The profile directory.
    var profile: String { aside.profile }
    private var commands: InterruptedCommands { InterruptedCommands(writer: writer, profile: profile) }

    /// Where the repair of `directory` (relative to the profile) is staged: beside it.
    static func stagingPath(of directory: String) -> String {
        InterruptedCommands.repairStagingPath(of: directory)
    }

    /// The staged directories of the profile, relative to it (read only).
    func staged() -> [String] { commands.stagedRepairs() }

    /// Settles what an interrupted run left (`Aside.settleInterruptedSteps`); returns what was done, as steps.
    func settleAll() throws -> [RepairStep] {
        try aside.settleInterruptedSteps().map(RepairStep.init)
    }

    /// Settles the staged repair of `directory`, if there is one.
    func settle(_ directory: String) throws(FileSystemError) -> RepairStep? {
        try commands.settleRepair(of: directory).map(RepairStep.init)
    }
}

extension RepairStep {
    /// A settled step as a repair reports it.
    init(_ step: InterruptedCommands.Step) {
        switch step {
        case .finishedRepair(let directory): self = .finishedInterrupted(directory: directory)
        case .removedUnfinished(let path): self = .removedUnfinished(directory: path)
        case .settled(let line): self = .settledSetAside(what: line)
        }
    }
}
