/// Everything that can go wrong in a file operation, whichever file system it runs on.
public enum FileSystemError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A file operation failed; `operation` names it (open, write, fsync, rename, ...), `code` is errno.
    case io(operation: String, path: String, code: Int32, reason: String)
    /// The output already exists and replacing it was not asked for.
    case exists(path: String)
    /// A path cannot be created (permission, a file where a directory is needed, ...).
    case cannotCreate(path: String, reason: String)
    /// Another process holds the profile's lock.
    case locked(path: String)
    /// A reader was asked for a FIFO, a device, a socket or a directory where it reads files only.
    case notRegularFile(path: String)
    /// A file larger than the reader's limit (or one that grew past it while being read).
    case tooLarge(path: String, size: Int64, limit: Int)

    /// The error with `path` named in place of an open file's descriptor (`fd N`), which is all
    /// a file system sees on a write, fsync or close.
    public func naming(_ path: String) -> FileSystemError {
        guard case .io(let operation, let described, let code, let reason) = self, described.hasPrefix("fd ") else { return self }
        return .io(operation: operation, path: path, code: code, reason: reason)
    }

    /// Why, without the path: what a reader that names the file its own way reports.
    public var reason: String {
        switch self {
        case .io(_, _, _, let reason), .cannotCreate(_, let reason): return reason
        case .exists: return "already exists"
        case .locked: return "another sessionctl holds the lock on this profile"
        case .notRegularFile: return "not a regular file"
        case .tooLarge(_, let size, let limit):
            return "\(size) bytes is larger than any session file (limit \(limit))"
        }
    }

    public var description: String {
        switch self {
        case .io(let operation, let path, _, let reason): return "\(path): \(operation) failed: \(reason)"
        case .exists(let path): return "\(path): already exists"
        case .cannotCreate(let path, let reason): return "\(path): cannot create: \(reason)"
        case .locked(let path): return "\(path): another sessionctl holds the lock on this profile"
        case .notRegularFile(let path), .tooLarge(let path, _, _): return "\(path): \(reason)"
        }
    }
}
