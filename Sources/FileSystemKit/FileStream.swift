#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A regular file of the real disk read from start to end in pieces, for readers that stream
/// (gzip input) instead of holding the whole file. Opened without blocking and refused unless it
/// is a regular file, as every reader of `POSIXFileSystem` does; closed when released.
public final class FileStream {
    private let descriptor: Int32
    /// The path it was opened at, for messages.
    public let path: String

    /// Opens `path` for reading.
    public init(_ path: String) throws(FileSystemError) {
        let fd = SystemCall.openFile(path, O_RDONLY | O_NONBLOCK)
        guard fd >= 0 else {
            let code = SystemCall.errorCode
            throw .io(operation: "open", path: path, code: code, reason: SystemCall.describe(code))
        }
        guard SystemCall.status(of: fd)?.kind == .file else {
            _ = SystemCall.closeFile(fd)
            throw .notRegularFile(path: path)
        }
        descriptor = fd
        self.path = path
    }

    /// Reads into `buffer`; returns how many bytes came (0 at the end).
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(FileSystemError) -> Int {
        let count = SystemCall.readBytes(descriptor, buffer.baseAddress, buffer.count)
        guard count >= 0 else {
            let code = SystemCall.errorCode
            throw .io(operation: "read", path: path, code: code, reason: SystemCall.describe(code))
        }
        return count
    }

    /// Reads up to `count` bytes from the current position (fewer at the end).
    public func read(upTo count: Int) throws(FileSystemError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = SystemCall.readBytes(descriptor, bytes.withUnsafeMutableBytes { $0.baseAddress.map { $0 + filled } }, count - filled)
            guard got >= 0 else {
                let code = SystemCall.errorCode
                throw .io(operation: "read", path: path, code: code, reason: SystemCall.describe(code))
            }
            if got == 0 { break }
            filled += got
        }
        return Array(bytes[0..<filled])
    }

    deinit { _ = SystemCall.closeFile(descriptor) }
}
