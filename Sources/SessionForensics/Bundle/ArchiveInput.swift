import Archive

#if canImport(Glibc)
    import FileSystemKit
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The file `decompress` reads, opened on the writer's file system and read from start to end in
/// pieces: streamed from the real disk (a large archive is never held whole), read at once from
/// any other file system (the crash simulator's model, which holds it in memory anyway).
final class ArchiveInput {
    private enum Source {
        case descriptor(Int32)
        case bytes([UInt8])
    }

    private let source: Source
    private var offset = 0
    /// The path, for messages.
    let path: String

    /// Opens `path`; refuses what is not a regular file (`ArchiveError.unreadable`).
    init(_ path: String, fileSystem: any ReadableFileSystem) throws {
        self.path = path
        guard fileSystem is POSIXFileSystem else {
            guard let kind = fileSystem.resolvedKind(of: path) else {
                throw ArchiveError.unreadable(path: path, reason: String(cString: strerror(ENOENT)))
            }
            guard kind == .file else { throw ArchiveError.unreadable(path: path, reason: "not a regular file") }
            do {
                source = .bytes(try fileSystem.read(path))
            } catch {
                throw ArchiveError.unreadable(path: path, reason: error.description)
            }
            return
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ArchiveError.unreadable(path: path, reason: String(cString: strerror(errno))) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw ArchiveError.unreadable(path: path, reason: "not a regular file")
        }
        source = .descriptor(fd)
    }

    deinit {
        if case .descriptor(let fd) = source { close(fd) }
    }

    /// Reads the next piece into `buffer`; returns how many bytes came (0 at the end).
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        switch source {
        case .descriptor(let fd):
            let count = SystemCall.readBytes(fd, buffer.baseAddress, buffer.count)
            guard count >= 0 else { throw ArchiveError.unreadable(path: path, reason: String(cString: strerror(errno))) }
            return count
        case .bytes(let bytes):
            let count = min(buffer.count, bytes.count - offset)
            guard count > 0 else { return 0 }
            bytes.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[offset..<offset + count])) }
            offset += count
            return count
        }
    }
}
