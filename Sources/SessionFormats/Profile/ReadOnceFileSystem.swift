import FileSystemKit
import Synchronization

/// A file system that reads each file at most once: the session file a command was given alone,
/// which each family's recognition (its signature, its content) and then the owning family's read
/// all ask for; or every file of a profile that a repair's dry run reads to plan and then again,
/// as the plan would leave it, to predict what remains. Everything but files' bytes goes to `base`.
///
/// A file's bytes are read on the first ask, as `base` gives them (mapped when large), and every
/// later ask is answered from them with the limit it gives, refused as `base` would refuse it. Only
/// for a read that ends before the files could change: a command's one look at its input.
package final class ReadOnceFileSystem: ReadableFileSystem {
    let base: any ReadableFileSystem
    /// The one file whose bytes are remembered; nil: every file.
    let only: String?
    private let files = Mutex<[String: Result<FileBytes, FileSystemError>]>([:])

    /// Remembers the bytes of `only` (a path as readers ask for it), or of every file when nil.
    package init(_ base: any ReadableFileSystem, only: String? = nil) {
        self.base = base
        self.only = only
    }

    /// The bytes of `path`, at most `limit` of them: read now the first time, remembered after (an error too).
    private func remembered(_ path: String, limit: Int) throws(FileSystemError) -> FileBytes {
        let result = files.withLock { known in
            if let file = known[path] { return file }
            let read = Result { () throws(FileSystemError) in try base.readBytes(path, limit: maximumFileSize) }
            known[path] = read
            return read
        }
        let file = try result.get()
        guard file.count <= limit else { throw .tooLarge(path: path, size: Int64(file.count), limit: limit) }
        return file
    }

    private func remembers(_ path: String) -> Bool { only.map { $0 == path } ?? true }

    package func read(_ path: String, limit: Int) throws(FileSystemError) -> [UInt8] {
        guard remembers(path) else { return try base.read(path, limit: limit) }
        return try remembered(path, limit: limit).array
    }

    package func readBytes(_ path: String, limit: Int) throws(FileSystemError) -> FileBytes {
        guard remembers(path) else { return try base.readBytes(path, limit: limit) }
        return try remembered(path, limit: limit)
    }

    package func kind(of path: String) -> FileKind? { base.kind(of: path) }
    package func resolvedKind(of path: String) -> FileKind? { base.resolvedKind(of: path) }
    package func list(_ path: String) throws(FileSystemError) -> [String] { try base.list(path) }
    package func entries(of path: String) throws(FileSystemError) -> [DirectoryEntry] { try base.entries(of: path) }
    package func size(of path: String) -> Int? { base.size(of: path) }
    package func permissions(of path: String) -> UInt32? { base.permissions(of: path) }
    package func snapshot(of path: String, reading file: String, measuring measured: String) -> DirectoryReading<FileSystemError> {
        base.snapshot(of: path, reading: file, measuring: measured)
    }
    package var readsConcurrently: Bool { base.readsConcurrently }
}
