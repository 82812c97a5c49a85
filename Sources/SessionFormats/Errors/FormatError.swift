/// Everything that can go wrong reading or writing a session format.
public enum FormatError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes are not a valid message of the expected kind; `offset` is the first bad byte.
    case damaged(file: String, offset: Int, reason: String)
    /// The input is not something sessionctl can read (wrong kind of file or directory).
    case notASession(path: String, reason: String)
    /// The input does not exist or cannot be read.
    case unreadable(path: String, reason: String)
    /// A document (JSON, workload, ...) is well-formed but describes something invalid.
    case invalidDocument(path: String, reason: String)

    public var description: String {
        switch self {
        case .damaged(let file, let offset, let reason): return "\(file): damaged at byte \(offset): \(reason)"
        case .notASession(let path, let reason): return "\(path): \(reason)"
        case .unreadable(let path, let reason): return "\(path): \(reason)"
        case .invalidDocument(let path, let reason): return "\(path): \(reason)"
        }
    }

    /// What is wrong, without the path.
    public var reason: String {
        switch self {
        case .damaged(_, _, let reason), .notASession(_, let reason), .unreadable(_, let reason), .invalidDocument(_, let reason): reason
        }
    }
}
