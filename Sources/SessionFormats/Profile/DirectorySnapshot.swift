import FileSystemKit

/// A directory and two entries of it read through a `ReadableTree`: what `kind(of:)`, `list`,
/// `read` and `size(of:)` say about them, in fewer steps, errors as a reader reports them.
public typealias DirectorySnapshot = DirectoryReading<FormatError>

extension FormatError {
    /// The same error about the file at `path`.
    package func naming(_ path: String) -> FormatError {
        switch self {
        case .damaged(_, let offset, let reason): return .damaged(file: path, offset: offset, reason: reason)
        case .notASession(_, let reason): return .notASession(path: path, reason: reason)
        case .unreadable(_, let reason): return .unreadable(path: path, reason: reason)
        case .invalidDocument(_, let reason): return .invalidDocument(path: path, reason: reason)
        }
    }
}
