/// The read-only part of a file system: all a reader of sessions needs.
///
/// Paths are absolute, relative to the working directory, or (for in-memory trees) relative to
/// the tree's root with "" for the root itself. Every reader refuses alike what is not a regular
/// file and what is larger than its limit: the implementations do it, not their callers.
public protocol ReadableFileSystem: Sendable {
    /// What is at a path, a symbolic link not followed; nil when nothing is there.
    func kind(of path: String) -> FileKind?
    /// What a path leads to, symbolic links followed (what a reader opening it gets).
    func resolvedKind(of path: String) -> FileKind?
    /// Names of a directory's entries, sorted by their UTF-8 bytes; throws when it is not a readable directory.
    func list(_ path: String) throws(FileSystemError) -> [String]
    /// A directory's entries with their kinds, sorted as `list` sorts them: what `list` and
    /// `kind(of:)` of each entry say, in one call where the file system can (readdir's entry types).
    func entries(of path: String) throws(FileSystemError) -> [DirectoryEntry]
    /// The bytes of a regular file of at most `limit` bytes (`.tooLarge` beyond it, `.notRegularFile` for anything else).
    func read(_ path: String, limit: Int) throws(FileSystemError) -> [UInt8]
    /// What `read` gives, where the file system can without copying it: the real disk maps a
    /// large file (`FileBytes`); others copy what `read` gives.
    func readBytes(_ path: String, limit: Int) throws(FileSystemError) -> FileBytes
    /// The size of a regular file (symbolic links followed), without reading it.
    func size(of path: String) -> Int?
    /// The permission bits (`0o7777` part of the mode) of what is at a path, or nil when unknown.
    func permissions(of path: String) -> UInt32?
    /// A directory's kind and entries, with one entry's bytes and another's size, read together.
    func snapshot(of path: String, reading file: String, measuring measured: String) -> DirectoryReading<FileSystemError>
    /// Whether several threads may read at once (false for a model that records what it is asked).
    var readsConcurrently: Bool { get }
}

/// The largest file any reader accepts: Chrome's own files are far smaller (state.pb is at most 5 MiB).
public let maximumFileSize = 1 << 30

extension ReadableFileSystem {
    /// Reads a whole regular file of at most `maximumFileSize` bytes.
    public func read(_ path: String) throws(FileSystemError) -> [UInt8] {
        try read(path, limit: maximumFileSize)
    }

    /// `read`, copied into bytes of their own.
    public func readBytes(_ path: String, limit: Int) throws(FileSystemError) -> FileBytes {
        FileBytes(try read(path, limit: limit))
    }

    /// `list`, then `kind(of:)` of each entry.
    public func entries(of path: String) throws(FileSystemError) -> [DirectoryEntry] {
        try list(path).map { DirectoryEntry(name: $0, kind: kind(of: joinPath(path, $0))) }
    }

    /// Without symbolic links, a path leads to what is there.
    public func resolvedKind(of path: String) -> FileKind? { kind(of: path) }

    /// Reading is safe from several threads unless a file system says otherwise.
    public var readsConcurrently: Bool { true }

    /// File systems that do not model permissions know none.
    public func permissions(of path: String) -> UInt32? { nil }

    /// `snapshot` made of the path-based calls.
    public func snapshot(of path: String, reading file: String, measuring measured: String) -> DirectoryReading<FileSystemError> {
        let kind = resolvedKind(of: path)
        let names = kind == .directory ? ((try? list(path)) ?? []) : []
        var bytes: Result<[UInt8], FileSystemError>?
        if names.contains(file) {
            do throws(FileSystemError) { bytes = .success(try read(joinPath(path, file))) } catch { bytes = .failure(error) }
        }
        let size = names.contains(measured) ? self.size(of: joinPath(path, measured)) : nil
        return DirectoryReading(kind: kind, names: names, file: bytes, measuredSize: size)
    }
}

/// A directory and two of its entries read together (a tab directory with its data.pb and
/// state.pb, for one): exactly what `resolvedKind`, `list`, `read` and `size` say of them;
/// `Failure` is why the file could not be read (the file system's error, or a reader's).
public struct DirectoryReading<Failure: Error & Sendable>: Sendable {
    /// What is at the directory's path (nil: nothing).
    public var kind: FileKind?
    /// The directory's entry names, sorted; empty when it is not a directory.
    public var names: [String]
    /// The bytes of the file asked to be read, or why they could not be; nil when there is no such entry.
    public var file: Result<[UInt8], Failure>?
    /// The size of the entry asked to be measured, when it is a regular file.
    public var measuredSize: Int?

    public init(kind: FileKind?, names: [String], file: Result<[UInt8], Failure>?, measuredSize: Int?) {
        self.kind = kind
        self.names = names
        self.file = file
        self.measuredSize = measuredSize
    }
}
