/// Everything that can go wrong reading or writing gzip streams and tar archives.
public enum ArchiveError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The stream is damaged; `offset` is the byte of `file` where the damage was found.
    case damaged(file: String, offset: Int64, reason: String)
    /// The input is not a gzip stream (or not a tar archive where one is needed).
    case notAnArchive(file: String, reason: String)
    /// An entry would land outside the output, or is of a kind that is never extracted.
    case unsafeEntry(file: String, entry: String, reason: String)
    /// Decompressing would produce more than the limit allows.
    case tooLarge(file: String, limit: Int64)
    /// The archive's manifest does not match its content.
    case manifestMismatch(file: String, entry: String, reason: String)
    /// An input cannot be read (missing, permission, ...).
    case unreadable(path: String, reason: String)
    /// zlib itself failed (out of memory, bad parameters).
    case zlib(code: Int32, reason: String)

    public var description: String {
        switch self {
        case .damaged(let file, let offset, let reason): return "\(file): damaged at byte \(offset): \(reason)"
        case .notAnArchive(let file, let reason): return "\(file): \(reason)"
        case .unsafeEntry(let file, let entry, let reason): return "\(file): entry '\(entry)' refused: \(reason)"
        case .tooLarge(let file, let limit):
            return "\(file): decompressed content exceeds the size limit of \(limit) bytes (see --max-size)"
        case .manifestMismatch(let file, let entry, let reason): return "\(file): manifest check failed for '\(entry)': \(reason)"
        case .unreadable(let path, let reason): return "\(path): \(reason)"
        case .zlib(let code, let reason): return "zlib error \(code): \(reason)"
        }
    }
}
