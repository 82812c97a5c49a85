/// Everything that can go wrong in the session store's file operations.
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A file operation failed; `operation` names it (open, write, fsync, rename, ...), `code` is errno.
    case io(operation: String, path: String, code: Int32, reason: String)
    /// The output already exists and replacing it was not asked for.
    case exists(path: String)
    /// A path cannot be created (permission, a file where a directory is needed, ...).
    case cannotCreate(path: String, reason: String)
    /// Another process holds the profile's lock.
    case locked(path: String)

    /// The error with `path` named in place of an open file's descriptor (`fd N`), which is all
    /// a file system sees on a write, fsync or close.
    public func naming(_ path: String) -> StoreError {
        guard case .io(let operation, let described, let code, let reason) = self, described.hasPrefix("fd ") else { return self }
        return .io(operation: operation, path: path, code: code, reason: reason)
    }

    public var description: String {
        switch self {
        case .io(let operation, let path, _, let reason): return "\(path): \(operation) failed: \(reason)"
        case .exists(let path): return "\(path): already exists"
        case .cannotCreate(let path, let reason): return "\(path): cannot create: \(reason)"
        case .locked(let path): return "\(path): another sessionctl holds the lock on this profile"
        }
    }
}
