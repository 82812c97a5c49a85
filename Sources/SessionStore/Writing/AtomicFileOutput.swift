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
public final class AtomicFileOutput {
    /// The final path.
    public let path: String
    /// The temporary file the content goes to until `commit`.
    public let temporaryPath: String
    /// Bytes written so far.
    public private(set) var byteCount: Int64 = 0
    private let fileSystem: any FileSystem
    private let replace: Bool
    private var handle: FileHandleID?

    init(path: String, temporaryPath: String, handle: FileHandleID, fileSystem: any FileSystem, replace: Bool) {
        self.path = path
        self.temporaryPath = temporaryPath
        self.handle = handle
        self.fileSystem = fileSystem
        self.replace = replace
    }

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
                try fileSystem.fsync(handle)
                self.handle = nil
                try fileSystem.close(handle)
            } catch {
                throw error.naming(temporaryPath)
            }
            if let modificationTime { try fileSystem.setModificationTime(temporaryPath, seconds: modificationTime) }
            if replace {
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
        try fileSystem.fsyncDirectory(parentPath(path))
    }

    /// Closes and removes the temporary file; the final path is not touched.
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
    /// Without `replace`, throws `.exists` at once when `path` exists (and again at commit if it appeared).
    public func begin(_ path: String, mode: UInt32 = 0o644, replace: Bool = false) throws(FileSystemError) -> AtomicFileOutput {
        if !replace, fileSystem.kind(of: path) != nil { throw .exists(path: path) }
        AbandonedOutputs.remove(besides: path, fileSystem: fileSystem)
        let (temp, handle) = try createTemporary(near: path, mode: mode)
        return AtomicFileOutput(path: path, temporaryPath: temp, handle: handle, fileSystem: fileSystem, replace: replace)
    }
}
