/// An exclusive lock on a directory, released when the value is released (or the process ends).
public final class DirectoryLock: Sendable {
    /// The locked directory.
    public let path: String
    private let release: @Sendable () -> Void

    /// A lock that runs `release` when it is let go.
    public init(path: String, release: @escaping @Sendable () -> Void) {
        self.path = path
        self.release = release
    }

    /// The lock of a file system that one process owns alone (an in-memory or model one): always
    /// granted, since nothing else can reach that file system.
    static func inProcess(_ path: String) -> DirectoryLock {
        DirectoryLock(path: path, release: {})
    }

    deinit { release() }
}
