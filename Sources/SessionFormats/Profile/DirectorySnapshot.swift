#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A directory and two entries of it read together: exactly what `kind(of:)`, `list`, `read` and
/// `size(of:)` of a `ReadableTree` say about them, in fewer steps (a tab directory with its data.pb
/// and state.pb, for one).
public struct DirectorySnapshot: Sendable {
    /// What is at the directory's path (nil: nothing).
    public var kind: TreeEntryKind?
    /// The directory's entry names, sorted; empty when it is not a directory.
    public var names: [String]
    /// The bytes of the file that was asked to be read, or why they could not be read; nil when
    /// the directory has no entry of that name.
    public var file: Result<[UInt8], FormatError>?
    /// The size of the entry that was asked to be measured, when it is a regular file.
    public var measuredSize: Int?

    public init(kind: TreeEntryKind?, names: [String], file: Result<[UInt8], FormatError>?, measuredSize: Int?) {
        self.kind = kind
        self.names = names
        self.file = file
        self.measuredSize = measuredSize
    }
}

extension ReadableTree {
    /// Reads directory `path`: its kind and entries, the bytes of entry `file` and the size of entry `measured`.
    public func snapshot(of path: String, reading file: String, measuring measured: String) -> DirectorySnapshot {
        pathSnapshot(of: path, reading: file, measuring: measured)
    }

    /// `snapshot` made of the tree's path-based calls.
    func pathSnapshot(of path: String, reading file: String, measuring measured: String) -> DirectorySnapshot {
        let kind = self.kind(of: path)
        let names = kind == .directory ? list(path) : []
        var bytes: Result<[UInt8], FormatError>?
        if names.contains(file) {
            do throws(FormatError) { bytes = .success(try read(treePath(path, file))) } catch { bytes = .failure(error) }
        }
        let size = names.contains(measured) ? self.size(of: treePath(path, measured)) : nil
        return DirectorySnapshot(kind: kind, names: names, file: bytes, measuredSize: size)
    }
}

extension DiskTree {
    /// `snapshot` with the directory opened once and its entries opened relative to it
    /// (one path lookup instead of four); falls back to path-based calls when the directory
    /// cannot be opened, so that every answer stays what those calls give.
    public func snapshot(of path: String, reading file: String, measuring measured: String) -> DirectorySnapshot {
        // opendir, not open and fdopendir: the same open, one fcntl fewer per directory.
        guard let directory = opendir(absolute(path)) else { return pathSnapshot(of: path, reading: file, measuring: measured) }
        defer { closedir(directory) }
        let fd = dirfd(directory)
        let names = DiskTree.names(of: directory)
        var bytes: Result<[UInt8], FormatError>?
        if names.contains(file) {
            let fileDescriptor = openat(fd, file, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
            if fileDescriptor < 0 {
                bytes = .failure(.unreadable(path: treePath(path, file), reason: String(cString: strerror(errno))))
            } else {
                defer { close(fileDescriptor) }
                // Errors name the file by its tree path, as `read` does; it is put together only for one.
                do throws(FormatError) { bytes = .success(try DiskTree.readOpenFile(fileDescriptor, display: "")) } catch {
                    bytes = .failure(error.naming(treePath(path, file)))
                }
            }
        }
        var size: Int?
        if names.contains(measured) {
            var info = stat()
            if fstatat(fd, measured, &info, 0) == 0, info.st_mode & S_IFMT == S_IFREG { size = Int(info.st_size) }
        }
        return DirectorySnapshot(kind: .directory, names: names, file: bytes, measuredSize: size)
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
