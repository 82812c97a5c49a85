@_spi(CrashTesting) import FileSystemKit
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes files atomically and durably: a temporary file in the same directory created with
/// O_EXCL, the whole content written (short writes resumed), fsync, rename over the final name,
/// then fsync of the directory before success is reported.
///
/// A live file is never opened for writing or truncated: until the rename, readers see the old
/// content; after the directory fsync, the new content survives power loss. On any error the
/// temporary file is removed and the old file is left intact. An fsync failure is a failure.
///
/// When a file is replaced, its old content is first hard-linked to a backup name
/// (`.sessionctl-old.<name>`) made durable by a directory fsync, and unlinked after the rename is
/// durable: a power loss can split an unsynced rename into "unlink destination, unlink source,
/// link destination", and in between neither name exists. Recovery (`TemporaryFileSweeper`)
/// links a backup back when its file is missing, then removes it.
/// An error from the final directory fsync comes after the rename: the new content is in place
/// but not known to be durable, so the caller must not report it as saved.
public struct AtomicWriter: Sendable {
    /// Prefix of every temporary file name; recovery recognises and removes leftovers by it.
    public static let temporaryPrefix = ".sessionctl-tmp."

    /// Prefix of every name given to work in progress in a profile: this writer's temporary files
    /// and backups, and what a tool writing through it stages under names of its own (see
    /// `LaunchSettling`). Never a session's name: the launch restores nothing named so.
    public static let reservedPrefix = ".sessionctl-"

    /// Every file operation goes through it.
    public let fileSystem: any FileSystem
    /// The write protocol: `.safe` unless a crash checker asks for a flawed one.
    @_spi(CrashTesting) public let writeProtocol: WriteProtocol
    private static let counter = Atomic<UInt64>(0)

    /// A writer on `fileSystem` that keeps every promise (`WriteProtocol.safe`).
    public init(fileSystem: any FileSystem = POSIXFileSystem()) {
        self.init(fileSystem: fileSystem, writeProtocol: .safe)
    }

    /// A writer on `fileSystem` that writes as `writeProtocol` says, flaws included.
    @_spi(CrashTesting) public init(fileSystem: any FileSystem = POSIXFileSystem(), writeProtocol: WriteProtocol) {
        self.fileSystem = fileSystem
        self.writeProtocol = writeProtocol
    }

    /// Prefix of the backup name that keeps a replaced file's old content until the replacement is durable.
    public static let backupPrefix = ".sessionctl-old."

    /// True for names that only a temporary file of this writer has.
    public static func isTemporaryName(_ name: String) -> Bool { name.hasPrefix(temporaryPrefix) }

    /// True for the backup names of replaced files (see the type's description).
    public static func isBackupName(_ name: String) -> Bool { name.hasPrefix(backupPrefix) }

    /// The backup name of a file name.
    public static func backupName(of name: String) -> String { backupPrefix + name }

    /// Atomically replaces (or creates) `path` with `bytes`.
    public func write(_ bytes: [UInt8], to path: String, mode: UInt32 = 0o644) throws(FileSystemError) {
        if writeProtocol == .inPlace { return try writeInPlace(bytes, to: path, mode: mode) }
        let directory = parentPath(path)
        let (temp, handle) = try createTemporary(near: path, mode: mode)
        do throws(FileSystemError) {
            try writeAll(bytes, to: handle, path: temp)
            if writeProtocol.syncsFiles { try fileSystem.fsync(handle) }
        } catch {
            try? fileSystem.close(handle)
            try? fileSystem.unlink(temp)
            throw error.naming(temp)
        }
        var backup: String?
        do throws(FileSystemError) {
            do throws(FileSystemError) { try fileSystem.close(handle) } catch { throw error.naming(temp) }
            if writeProtocol.keepsBackups, fileSystem.kind(of: path) == .file {
                let name = joinPath(directory, AtomicWriter.backupName(of: lastPathComponent(path)))
                if fileSystem.kind(of: name) != nil { try fileSystem.unlink(name) }
                try fileSystem.link(path, to: name)
                if writeProtocol != .unsyncedBackup { try fileSystem.fsyncDirectory(directory) }
                backup = name
            }
            try fileSystem.rename(temp, to: path)
        } catch {
            try? fileSystem.unlink(temp)
            if let backup { try? fileSystem.unlink(backup) }
            throw error
        }
        if writeProtocol.syncsDirectories { try fileSystem.fsyncDirectory(directory) }
        // Not fsynced: a backup that reappears after a crash is removed by recovery.
        if let backup { try fileSystem.unlink(backup) }
    }

    /// Writes every byte, resuming short writes.
    private func writeAll(_ bytes: [UInt8], to handle: FileHandleID, path: String) throws(FileSystemError) {
        var offset = 0
        while offset < bytes.count {
            let written: Int
            do throws(FileSystemError) { written = try fileSystem.write(handle, bytes[offset...]) } catch { throw error.naming(path) }
            guard written > 0 else {
                throw FileSystemError.io(operation: "write", path: path, code: EIO, reason: "no progress")
            }
            offset += written
        }
    }

    /// The flawed `.inPlace` protocol: truncate the live file, rewrite it, fsync.
    private func writeInPlace(_ bytes: [UInt8], to path: String, mode: UInt32) throws(FileSystemError) {
        let handle = try AtomicWriter.openTruncating(path, mode: mode, on: fileSystem)
        do throws(FileSystemError) {
            try writeAll(bytes, to: handle, path: path)
            try fileSystem.fsync(handle)
        } catch {
            try? fileSystem.close(handle)
            throw error.naming(path)
        }
        do throws(FileSystemError) { try fileSystem.close(handle) } catch { throw error.naming(path) }
        try fileSystem.fsyncDirectory(parentPath(path))
    }

    /// Opens `path` for writing from its start, as the flawed `.inPlace` protocol does: truncated
    /// through the file system's hook (`FileSystemHooks.openTruncating`), else unlinked and
    /// created anew.
    static func openTruncating(_ path: String, mode: UInt32, on fileSystem: any FileSystem) throws(FileSystemError) -> FileHandleID {
        if let hooks = fileSystem.hooks { return try hooks.openTruncating(path, mode: mode) }
        if fileSystem.kind(of: path) == .file { try fileSystem.unlink(path) }
        return try fileSystem.createExclusive(path, mode: mode)
    }

    /// Creates `path` and any missing parents, each made durable by an fsync of its parent.
    public func makeDirectories(_ path: String, mode: UInt32 = 0o755) throws(FileSystemError) {
        if let kind = fileSystem.kind(of: path) {
            // A symbolic link to a directory is taken as the directory (a profile given through a link).
            guard kind == .directory || fileSystem.resolvedKind(of: path) == .directory else {
                throw .cannotCreate(path: path, reason: "a file is in the way")
            }
            return
        }
        let parent = parentPath(path)
        if parent != path { try makeDirectories(parent, mode: mode) }
        do throws(FileSystemError) {
            try fileSystem.mkdir(path, mode: mode)
        } catch .exists {
            return
        }
        if writeProtocol.syncsDirectories { try fileSystem.fsyncDirectory(parent) }
    }

    /// Creates a new, empty temporary file beside `path`.
    func createTemporary(near path: String, mode: UInt32) throws(FileSystemError) -> (String, FileHandleID) {
        let directory = parentPath(path)
        let name = lastPathComponent(path)
        for attempt in 1...100 {
            // The planted protocol's names take the first free number, so that they depend on the
            // directory alone, not on how many temporaries the process made before.
            let serial =
                writeProtocol == .strangeTemporaryNames ? UInt64(attempt) : AtomicWriter.counter.add(1, ordering: .relaxed).newValue
            let temp =
                writeProtocol == .strangeTemporaryNames
                ? joinPath(directory, "\(name)~tmp\(serial)")
                : joinPath(directory, "\(AtomicWriter.temporaryPrefix)\(name).\(getpid()).\(serial)")
            do {
                return (temp, try fileSystem.createExclusive(temp, mode: mode))
            } catch .exists {
                continue
            }
        }
        throw .cannotCreate(path: path, reason: "no free temporary name")
    }
}
