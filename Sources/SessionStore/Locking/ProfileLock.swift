#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive lock on a profile, held by a command that changes it so that two sessionctl
/// processes never move the same sessions at once: `flock` on the profile directory itself.
///
/// The lock is advisory (Chrome does not take it), is released when this value is released or
/// the process ends, however it ends, and leaves nothing in the profile. (Earlier versions locked
/// a `.sessionctl.lock` file inside it; `staleFileName` names it so that tools can ignore it.)
public final class ProfileLock: Sendable {
    /// The lock file earlier versions left in a profile; never created now.
    public static let staleFileName = ".sessionctl.lock"

    private let descriptor: Int32
    /// The locked directory: the profile.
    public let path: String

    private init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    /// Takes the lock of `profile`, waiting at most 0.2 s; throws `StoreError.locked` when another
    /// process (or another lock in this one) holds it.
    public static func acquire(profile: String) throws(StoreError) -> ProfileLock {
        var descriptor: Int32
        repeat {
            descriptor = open(profile, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        } while descriptor < 0 && errno == EINTR
        guard descriptor >= 0 else {
            let code = errno
            if code == EACCES || code == EROFS || code == ENOENT || code == ENOTDIR {
                throw .cannotCreate(path: profile, reason: String(cString: strerror(code)))
            }
            throw .io(operation: "open", path: profile, code: code, reason: String(cString: strerror(code)))
        }
        // A lock just released can stay held for an instant by a process being spawned (its
        // copies of close-on-exec descriptors live until it execs): try again for up to 0.2 s
        // before calling the profile locked.
        var attempts = 0
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            if code == EINTR { continue }
            if code == EWOULDBLOCK && attempts < 20 {
                attempts += 1
                usleep(10_000)
                continue
            }
            _ = close(descriptor)
            if code == EWOULDBLOCK { throw .locked(path: profile) }
            throw .io(operation: "flock", path: profile, code: code, reason: String(cString: strerror(code)))
        }
        return ProfileLock(descriptor: descriptor, path: profile)
    }

    deinit {
        _ = close(descriptor)
    }
}
