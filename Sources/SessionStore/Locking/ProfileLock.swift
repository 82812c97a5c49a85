#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive lock on a profile, held by a command that changes it so that two sessionctl
/// processes never move the same sessions at once: `flock` on `<profile>/.sessionctl.lock`.
///
/// The lock is advisory (Chrome does not take it) and is released when this value is released
/// or the process ends, however it ends; the lock file itself stays, empty.
public final class ProfileLock: Sendable {
    /// Name of the lock file inside the profile.
    public static let fileName = ".sessionctl.lock"

    private let descriptor: Int32
    /// The lock file's path.
    public let path: String

    private init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    /// Takes the lock of `profile` without waiting; throws `StoreError.locked` when another
    /// process (or another lock in this one) holds it.
    public static func acquire(profile: String) throws(StoreError) -> ProfileLock {
        let path = joinPath(profile, fileName)
        var descriptor: Int32
        repeat {
            descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        } while descriptor < 0 && errno == EINTR
        guard descriptor >= 0 else {
            let code = errno
            if code == EACCES || code == EROFS || code == ENOENT || code == ENOTDIR {
                throw .cannotCreate(path: path, reason: String(cString: strerror(code)))
            }
            throw .io(operation: "open", path: path, code: code, reason: String(cString: strerror(code)))
        }
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            if code == EINTR { continue }
            _ = close(descriptor)
            if code == EWOULDBLOCK { throw .locked(path: profile) }
            throw .io(operation: "flock", path: path, code: code, reason: String(cString: strerror(code)))
        }
        return ProfileLock(descriptor: descriptor, path: path)
    }

    deinit {
        _ = close(descriptor)
    }
}
