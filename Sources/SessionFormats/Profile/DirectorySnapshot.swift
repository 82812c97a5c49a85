import FileSystemKit

/// A directory and two entries of it read together: exactly what `kind(of:)`, `list`, `read` and
/// `size(of:)` of a `ReadableTree` say about them, in fewer steps (a tab directory with its data.pb
/// and state.pb, for one).
public struct DirectorySnapshot: Sendable {
    /// What is at the directory's path (nil: nothing).
    public var kind: FileKind?
    /// The directory's entry names, sorted; empty when it is not a directory.
    public var names: [String]
    /// The bytes of the file that was asked to be read, or why they could not be read; nil when
    /// the directory has no entry of that name.
    public var file: Result<[UInt8], FormatError>?
    /// The size of the entry that was asked to be measured, when it is a regular file.
    public var measuredSize: Int?

    public init(kind: FileKind?, names: [String], file: Result<[UInt8], FormatError>?, measuredSize: Int?) {
        self.kind = kind
        self.names = names
        self.file = file
        self.measuredSize = measuredSize
    }
}

extension FormatError {
    /// The same error about the file at `path`.
    func naming(_ path: String) -> FormatError {
        switch self {
        case .damaged(_, let offset, let reason): return .damaged(file: path, offset: offset, reason: reason)
        case .notASession(_, let reason): return .notASession(path: path, reason: reason)
        case .unreadable(_, let reason): return .unreadable(path: path, reason: reason)
        case .invalidDocument(_, let reason): return .invalidDocument(path: path, reason: reason)
        }
    }
}
