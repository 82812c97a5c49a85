import FileSystemKit

/// What a tool that writes a profile through the store's writer left unfinished, settled by the
/// store's launch as that tool's next run would, before any session is read.
///
/// The store settles only its own interrupted writes (`TemporaryFileSweeper`,
/// `SessionSetAside.completeInterruptedEntries`). A tool that stages work in the profile under
/// names of its own (beginning with `AtomicWriter.reservedPrefix`, which the launch never restores
/// as a session) supplies how to settle what it leaves, in `RecoveryPolicy`'s `settling` (or
/// `SessionService.Options.settling`). The launch runs each, in order, after its own steps and
/// under the profile's lock, and skips them all while another holder has the lock (a tool
/// running on the profile now).
public protocol LaunchSettling: Sendable {
    /// Finishes or undoes what interrupted runs left in `profile`, writing through `writer`;
    /// returns what was done, one line each.
    func settle(profile: String, writer: AtomicWriter) throws(FileSystemError) -> [String]
}
