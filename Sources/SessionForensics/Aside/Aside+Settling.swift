import FileSystemKit
import SessionFormats
import SessionStore

extension Aside {
    /// Settles what interrupted sessionctl commands (and the store's writes) left in the profile,
    /// as every command that changes a profile does first, under its lock; returns what was done,
    /// one line each (see `settleInterruptedSteps`).
    public func settleInterrupted() throws -> [String] {
        try settleInterruptedSteps().map(\.description)
    }

    /// Settles, in order:
    ///
    /// - temporary files and backups of interrupted atomic writes (`TemporaryFileSweeper`), the
    ///   half-written manifests of set-aside entries among them, so that no restore carries one
    ///   into a live session;
    /// - set-asides cut short (`SessionSetAside.completeInterruptedEntries`): a missing manifest
    ///   completed, the rest of a live directory being removed removed;
    /// - interrupted sessionctl commands (`InterruptedCommands`): staged repairs finished or
    ///   removed, a repair's intent record acted on, drops, restores and imports cut short and an
    ///   empty migration leftover removed.
    public func settleInterruptedSteps() throws -> [InterruptedCommands.Step] {
        var steps = try TemporaryFileSweeper(writer: writer, profile: profile).sweep().map {
            InterruptedCommands.Step.settled("removed \($0)")
        }
        steps += try SessionSetAside(writer: writer, profile: profile).completeInterruptedEntries().map { .settled($0) }
        steps += try InterruptedCommands(writer: writer, profile: profile).settle()
        return steps
    }
}
