import FileSystemKit
import SessionStore

/// The settling of interrupted sessionctl commands (`InterruptedCommands`) as a step of the
/// store's launch: what an app that shares its profile with sessionctl passes in
/// `SessionService.Options.settling` (or `RecoveryPolicy`'s `settling`), so that a launch after an
/// interrupted repair, migration, restore, drop or import settles it as sessionctl's next run
/// would.
public struct InterruptedCommandSettling: LaunchSettling {
    /// The step; it holds nothing.
    public init() {}

    /// Settles what interrupted sessionctl commands left in `profile`; one line for each thing done.
    public func settle(profile: String, writer: AtomicWriter) throws(FileSystemError) -> [String] {
        try InterruptedCommands(writer: writer, profile: profile).settle().map(\.description)
    }
}
