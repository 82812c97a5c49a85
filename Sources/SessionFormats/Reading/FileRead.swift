/// One file of a session as a read found it: missing, unreadable (and why), or its bytes.
public enum FileRead: Sendable, Equatable {
    case missing
    case unreadable(FormatError)
    case bytes([UInt8])

    /// The bytes, when the file was read.
    public var bytes: [UInt8]? {
        if case .bytes(let bytes) = self { return bytes }
        return nil
    }

    /// Reads `path` of `tree`: missing when nothing is there, unreadable with the reader's error.
    public init(_ tree: ReadableTree, _ path: String) {
        guard tree.kind(of: path) != nil else {
            self = .missing
            return
        }
        do {
            self = .bytes(try tree.read(path))
        } catch {
            self = .unreadable(error)
        }
    }

    /// What the file system's combined directory reading said about one file (nil: no such entry).
    init(_ result: Result<[UInt8], FormatError>?) {
        switch result {
        case nil: self = .missing
        case .success(let bytes)?: self = .bytes(bytes)
        case .failure(let error)?: self = .unreadable(error)
        }
    }

    /// Reads `path` of `tree` in one call when it is there (most are): missing or unreadable is
    /// told apart only when the read fails.
    package init(oneCall tree: ReadableTree, _ path: String) {
        do {
            self = .bytes(try tree.read(path))
        } catch {
            self = tree.kind(of: path) == nil ? .missing : .unreadable(error)
        }
    }
}
