import FileSystemKit
import SessionFormats
import SessionStore

/// The settling of interrupted sessionctl commands (`InterruptedCommands`) as a step of the
/// store's launch: what an app that shares its profile with sessionctl passes in
/// `SessionService.Options.settling` (or `RecoveryPolicy`'s `settling`), so that a launch after an
/// interrupted repair, migration, restore, drop or import settles it as sessionctl's next run
/// would.
public struct InterruptedCommandSettling: LaunchSettling {
    /// Where the commands stage what they put together; nil: where the families registered
    /// when the launch runs stage it (`StagingLayout.registered`).
    public let layout: StagingLayout?

    /// The step, looking where `layout` says (by default where every registered family's
    /// commands stage).
    public init(layout: StagingLayout? = nil) {
        self.layout = layout
    }

    /// Settles what interrupted sessionctl commands left in `profile`; one line for each thing done.
    public func settle(profile: String, writer: AtomicWriter) throws(FileSystemError) -> [String] {
        try InterruptedCommands(writer: writer, profile: profile, layout: layout ?? .registered).settle().map(\.description)
    }
}
