#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Writes files atomically and durably: a temporary file in the same directory created with
/// O_EXCL, the whole content written (short writes resumed), fsync, rename over the final name,
/// then fsync of the directory before success is reported.
///
/// A live file is never opened for writing or truncated: until the rename, readers see the old
/// content; after the directory fsync, the new content survives power loss. On any error the
/// temporary file is removed and the old file is left intact. An fsync failure is a failure.
/// An error from the final directory fsync comes after the rename: the new content is in place
/// but not known to be durable, so the caller must not report it as saved.
public struct AtomicWriter: Sendable {
    /// Prefix of every temporary file name; recovery recognises and removes leftovers by it.
    public static let temporaryPrefix = ".sessionctl-tmp."

    public let fileSystem: any FileSystem
    private static let counter = Atomic<UInt64>(0)

    public init(fileSystem: any FileSystem = POSIXFileSystem()) { self.fileSystem = fileSystem }

    /// True for names that only a temporary file of this writer has.
    public static func isTemporaryName(_ name: String) -> Bool { name.hasPrefix(temporaryPrefix) }

    /// Atomically replaces (or creates) `path` with `bytes`.
    public func write(_ bytes: [UInt8], to path: String, mode: UInt32 = 0o644) throws(StoreError) {
        let directory = parentPath(path)
        let (temp, handle) = try createTemporary(near: path, mode: mode)
        do throws(StoreError) {
            var offset = 0
            while offset < bytes.count {
                let written = try fileSystem.write(handle, bytes[offset...])
                guard written > 0 else {
                    throw StoreError.io(operation: "write", path: temp, code: EIO, reason: "no progress")
                }
                offset += written
            }
            try fileSystem.fsync(handle)
        } catch {
            try? fileSystem.close(handle)
            try? fileSystem.unlink(temp)
            throw error
        }
        do throws(StoreError) {
            try fileSystem.close(handle)
            try fileSystem.rename(temp, to: path)
        } catch {
            try? fileSystem.unlink(temp)
            throw error
        }
        try fileSystem.fsyncDirectory(directory)
    }

    /// Creates `path` and any missing parents, each made durable by an fsync of its parent.
    public func makeDirectories(_ path: String, mode: UInt32 = 0o755) throws(StoreError) {
        if let kind = fileSystem.kind(of: path) {
            guard kind == .directory else { throw .cannotCreate(path: path, reason: "a file is in the way") }
            return
        }
        let parent = parentPath(path)
        if parent != path { try makeDirectories(parent, mode: mode) }
        do throws(StoreError) {
            try fileSystem.mkdir(path, mode: mode)
        } catch .exists {
            return
        }
        try fileSystem.fsyncDirectory(parent)
    }

    /// Creates a new, empty temporary file beside `path`.
    private func createTemporary(near path: String, mode: UInt32) throws(StoreError) -> (String, FileHandleID) {
        let directory = parentPath(path)
        let name = lastPathComponent(path)
        for _ in 0..<100 {
            let serial = AtomicWriter.counter.add(1, ordering: .relaxed).newValue
            let temp = joinPath(directory, "\(AtomicWriter.temporaryPrefix)\(name).\(getpid()).\(serial)")
            do {
                return (temp, try fileSystem.createExclusive(temp, mode: mode))
            } catch .exists {
                continue
            }
        }
        throw .cannotCreate(path: path, reason: "no free temporary name")
    }
}
