/// What is at a path of a file system.
public enum FileKind: Sendable, Equatable {
    case file
    case directory
    /// Anything else: a symbolic link (when not followed), a FIFO, a device, a socket.
    case other
}
