import FileSystemKit

/// The exclusive lock a command that changes a profile holds on it, so that two sessionctl
/// processes never move the same sessions at once: the file system's lock on the profile
/// directory itself (`flock` on the real disk).
///
/// The lock is advisory (Chrome does not take it), is released when the returned value is
/// released or the process ends, however it ends, and leaves nothing in the profile. (Earlier
/// versions locked a `.sessionctl.lock` file inside it; `staleFileName` names it so that tools can ignore it.)
public enum ProfileLock {
    /// The lock file earlier versions left in a profile; never created now.
    public static let staleFileName = ".sessionctl.lock"

    /// Takes the lock of `profile`, waiting at most 0.2 s; throws `FileSystemError.locked` when
    /// another process (or another lock in this one) holds it.
    public static func acquire(profile: String, fileSystem: any FileSystem = POSIXFileSystem()) throws(FileSystemError) -> DirectoryLock {
        try fileSystem.lockDirectory(profile)
    }
}
