#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading on the real file system: files opened without blocking (a FIFO or device planted in a
/// profile never makes a reader wait), anything but a regular file and anything over the limit
/// refused, here and nowhere else.
extension POSIXFileSystem {
    public func kind(of path: String) -> FileKind? {
        SystemCall.status(path, following: false)?.kind
    }

    public func resolvedKind(of path: String) -> FileKind? {
        SystemCall.status(path, following: true)?.kind
    }

    public func size(of path: String) -> Int? {
        guard let status = SystemCall.status(path, following: true), status.kind == .file else { return nil }
        return Int(status.size)
    }

    public func permissions(of path: String) -> UInt32? {
        SystemCall.status(path, following: false)?.permissions
    }

    public func list(_ path: String) throws(FileSystemError) -> [String] {
        guard let names = SystemCall.withDirectory(path, { names, _ in names }) else { throw failure("opendir", path) }
        return names
    }

    /// The kinds readdir reports (one `fstatat` for an entry it reports none for), never a stat per entry.
    public func entries(of path: String) throws(FileSystemError) -> [DirectoryEntry] {
        guard let entries = SystemCall.entries(of: path) else { throw failure("opendir", path) }
        return entries
    }

    public func read(_ path: String, limit: Int) throws(FileSystemError) -> [UInt8] {
        let fd = SystemCall.openFile(path, O_RDONLY | O_NONBLOCK)
        guard fd >= 0 else { throw failure("open", path) }
        defer { _ = SystemCall.closeFile(fd) }
        return try readOpenFile(fd, path: path, limit: limit)
    }

    /// A file of at least `mappingThreshold` bytes mapped (`FileBytes`), a smaller one read; a
    /// file that cannot be mapped is read too.
    public func readBytes(_ path: String, limit: Int) throws(FileSystemError) -> FileBytes {
        let fd = SystemCall.openFile(path, O_RDONLY | O_NONBLOCK)
        guard fd >= 0 else { throw failure("open", path) }
        defer { _ = SystemCall.closeFile(fd) }
        guard let status = SystemCall.status(of: fd) else { throw failure("fstat", path) }
        guard status.kind == .file else { throw .notRegularFile(path: path) }
        guard status.size <= limit else { throw .tooLarge(path: path, size: status.size, limit: limit) }
        if status.size >= Self.mappingThreshold, let mapped = FileBytes.mapping(fd, count: Int(status.size)) { return mapped }
        return FileBytes(try readOpenFile(fd, path: path, limit: limit))
    }

    /// The size from which `readBytes` maps a file: below it, reading costs less than mapping
    /// and unmapping.
    public static let mappingThreshold: Int64 = 1 << 20

    /// `snapshot` with the directory opened once and its entries opened relative to it (one path
    /// lookup instead of four); path-based calls when the directory cannot be opened, so that
    /// every answer stays what those calls give.
    public func snapshot(of path: String, reading file: String, measuring measured: String) -> DirectoryReading<FileSystemError> {
        let reading = SystemCall.withDirectory(path) { names, fd -> DirectoryReading<FileSystemError> in
            var bytes: Result<[UInt8], FileSystemError>?
            if names.contains(file) {
                let fileDescriptor = SystemCall.openFile(at: fd, file, O_RDONLY | O_NONBLOCK)
                if fileDescriptor < 0 {
                    bytes = .failure(failure("open", joinPath(path, file)))
                } else {
                    defer { _ = SystemCall.closeFile(fileDescriptor) }
                    do throws(FileSystemError) {
                        bytes = .success(try readOpenFile(fileDescriptor, path: joinPath(path, file), limit: maximumFileSize))
                    } catch { bytes = .failure(error) }
                }
            }
            var size: Int?
            if names.contains(measured), let status = SystemCall.status(at: fd, measured), status.kind == .file {
                size = Int(status.size)
            }
            return DirectoryReading(kind: .directory, names: names, file: bytes, measuredSize: size)
        }
        return reading ?? DirectoryReading(kind: resolvedKind(of: path), names: [], file: nil, measuredSize: nil)
    }

    /// Reads the whole regular file open on `fd` (which stays open), of at most `limit` bytes.
    func readOpenFile(_ fd: Int32, path: String, limit: Int) throws(FileSystemError) -> [UInt8] {
        guard let status = SystemCall.status(of: fd) else { throw failure("fstat", path) }
        guard status.kind == .file else { throw .notRegularFile(path: path) }
        guard status.size <= limit else { throw .tooLarge(path: path, size: status.size, limit: limit) }
        // Read the size fstat gave in one go, into memory not zeroed first (a large session file
        // costs a tenth of its read in the zeroing); an empty stat size (procfs) reads on to the end.
        let size = max(Int(status.size), 0)
        var failed = false
        var buffer = [UInt8](unsafeUninitializedCapacity: size) { raw, initialized in
            SystemCall.adviseLargeBuffer(UnsafeMutableRawBufferPointer(raw))
            var filled = 0
            while filled < size {
                let count = SystemCall.readBytes(fd, raw.baseAddress.map { UnsafeMutableRawPointer($0 + filled) }, size - filled)
                if count < 0 { failed = true }
                if count <= 0 { break }
                filled += count
            }
            initialized = filled
        }
        guard !failed else { throw failure("read", path) }
        // The size fstat reported has arrived, or the file ended before it (it shrank meanwhile):
        // a snapshot, without a second read to confirm the end.
        if size > 0 { return buffer }
        var filled = buffer.count
        var chunk: [UInt8] = []
        while true {
            let intoBuffer = filled < buffer.count
            let count: Int
            if intoBuffer {
                count = buffer.withUnsafeMutableBytes { raw in
                    SystemCall.readBytes(fd, raw.baseAddress.map { $0 + filled }, raw.count - filled)
                }
            } else {
                if chunk.isEmpty { chunk = [UInt8](repeating: 0, count: 4096) }
                count = chunk.withUnsafeMutableBytes { raw in SystemCall.readBytes(fd, raw.baseAddress, raw.count) }
            }
            guard count >= 0 else { throw failure("read", path) }
            if count == 0 { break }
            if !intoBuffer { buffer.append(contentsOf: chunk[0..<count]) }
            filled += count
            // The size fstat reported has arrived: stop without a second read to confirm the end
            // (a file that changes while being read gives a snapshot, never a hang).
            if intoBuffer && filled == buffer.count && buffer.count > 0 { break }
            guard filled <= limit else { throw .tooLarge(path: path, size: Int64(filled), limit: limit) }
        }
        if filled < buffer.count { buffer.removeSubrange(filled...) }
        return buffer
    }
}
