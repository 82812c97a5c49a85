#if canImport(Glibc)
    import FileSystemKit
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file written in pieces under a temporary name beside its final path, made to appear whole by
/// `commit` (fsync, then rename or link into place, then fsync of the directory) or removed by `abort`.
///
/// Nothing is ever visible at the final path until the content is complete and durable; dropping
/// an output that was not committed removes its temporary file.
///
/// The writer's protocol is honoured so that a crash checker can prove it catches a flawed one
/// (`WriteProtocol`): `.inPlace` writes the final path itself from the start, `.noFsync` skips
/// every fsync, and a protocol that does not sync directories skips the directory's fsync.
public final class AtomicFileOutput {
    /// The final path.
    public let path: String
    /// The temporary file the content goes to until `commit` (the final path itself under `.inPlace`).
    public let temporaryPath: String
    /// Bytes written so far.
    public private(set) var byteCount: Int64 = 0
    private let fileSystem: any FileSystem
    private let replace: Bool
    private let writeProtocol: WriteProtocol
    private var handle: FileHandleID?
    /// Where the bytes not yet handed to `FileSystem.startWriteback` start.
    private var writebackStart: Int64 = 0
    /// How many bytes are written before they are asked to start going to the disk: a large
    /// output (a report of hundreds of megabytes) is then mostly on the disk when `commit` fsyncs.
    static let writebackStep: Int64 = 4 << 20

    init(
        path: String, temporaryPath: String, handle: FileHandleID, fileSystem: any FileSystem, replace: Bool,
        writeProtocol: WriteProtocol
    ) {
        self.path = path
        self.temporaryPath = temporaryPath
        self.handle = handle
        self.fileSystem = fileSystem
        self.replace = replace
        self.writeProtocol = writeProtocol
    }

    /// Whether the content goes straight to the final path (the flawed `.inPlace` protocol).
    private var isInPlace: Bool { temporaryPath == path }

    deinit { abort() }

    /// Appends bytes to the file (short writes resumed).
    public func write(_ bytes: ArraySlice<UInt8>) throws(FileSystemError) {
        guard let handle else { throw .io(operation: "write", path: temporaryPath, code: EBADF, reason: "output already closed") }
        var offset = bytes.startIndex
        while offset < bytes.endIndex {
            let written: Int
            do throws(FileSystemError) { written = try fileSystem.write(handle, bytes[offset...]) } catch {
                throw error.naming(temporaryPath)
            }
            guard written > 0 else { throw .io(operation: "write", path: temporaryPath, code: EIO, reason: "no progress") }
            offset += written
        }
        byteCount += Int64(bytes.count)
        if writeProtocol.syncsFiles, byteCount - writebackStart >= Self.writebackStep {
            fileSystem.startWriteback(handle, offset: writebackStart, length: byteCount - writebackStart)
            writebackStart = byteCount
        }
    }

    /// Appends raw bytes to the file.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(FileSystemError) {
        try write(ArraySlice(bytes.bindMemory(to: UInt8.self)))
    }

    /// Makes the file appear at its final path, complete and durable; with `modificationTime`, sets it first.
    ///
    /// Without `replace`, an existing final path is left alone and `.exists` is thrown.
    public func commit(modificationTime: Int64? = nil) throws(FileSystemError) {
        guard let handle else { throw .io(operation: "commit", path: temporaryPath, code: EBADF, reason: "output already closed") }
        do throws(FileSystemError) {
            do throws(FileSystemError) {
                if writeProtocol.syncsFiles { try fileSystem.fsync(handle) }
                self.handle = nil
                try fileSystem.close(handle)
            } catch {
                throw error.naming(temporaryPath)
            }
            if let modificationTime { try fileSystem.setModificationTime(temporaryPath, seconds: modificationTime) }
            if isInPlace {
                // Already at its final path.
            } else if replace {
                try fileSystem.rename(temporaryPath, to: path)
            } else {
                // link fails when the final path exists, so a file that appeared meanwhile is never replaced.
                try fileSystem.link(temporaryPath, to: path)
                try fileSystem.unlink(temporaryPath)
            }
        } catch {
            try? fileSystem.unlink(temporaryPath)
            throw error
        }
        if writeProtocol.syncsDirectories { try fileSystem.fsyncDirectory(parentPath(path)) }
    }

    /// Closes and removes the temporary file; the final path is not touched (except under
    /// `.inPlace`, where the file removed is the final path).
    public func abort() {
        guard let handle else { return }
        self.handle = nil
        try? fileSystem.close(handle)
        try? fileSystem.unlink(temporaryPath)
    }
}

extension AtomicWriter {
    /// Starts writing `path` in pieces through a temporary file beside it.
    ///
    /// Without `replace`, throws `.exists` at once when `path` exists (and again at commit if it
    /// appeared). What killed runs left beside `path` is removed first, even then (`AbandonedOutputs`).
    public func begin(_ path: String, mode: UInt32 = 0o644, replace: Bool = false) throws(FileSystemError) -> AtomicFileOutput {
        AbandonedOutputs.remove(besides: path, fileSystem: fileSystem)
        if !replace, fileSystem.kind(of: path) != nil { throw .exists(path: path) }
        if writeProtocol == .inPlace {
            let handle =
                try replace ? AtomicWriter.openTruncating(path, mode: mode, on: fileSystem) : fileSystem.createExclusive(path, mode: mode)
            return AtomicFileOutput(
                path: path, temporaryPath: path, handle: handle, fileSystem: fileSystem, replace: replace, writeProtocol: writeProtocol)
        }
        let (temp, handle) = try createTemporary(near: path, mode: mode)
        return AtomicFileOutput(
            path: path, temporaryPath: temp, handle: handle, fileSystem: fileSystem, replace: replace, writeProtocol: writeProtocol)
    }
}
