import Archive
import FileSystemKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads files for `compress`: content streamed in large chunks through one buffer (made once:
/// a fresh buffer per file costs a map, an unmap and page faults), link targets.
final class FileContentReader {
    static let chunkSize = 1 << 18
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: FileContentReader.chunkSize, alignment: 16)

    init() {}

    deinit { buffer.deallocate() }

    /// Streams the content of `name` in the open directory `directory` (`display` names it in
    /// errors) to `sink`; returns its size. With `expectedSize`, the file must still have that
    /// size (see `BundleSource.copy`).
    func copy(
        _ name: String, at directory: Int32, display path: String, expectedSize: Int64?,
        to sink: (UnsafeRawBufferPointer) throws -> Void
    ) throws -> Int64 {
        let fd = openat(directory, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { throw ArchiveError.unreadable(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var total: Int64 = 0
        while true {
            let count = SystemCall.readBytes(fd, buffer.baseAddress, buffer.count)
            if count < 0 {
                throw ArchiveError.unreadable(path: path, reason: String(cString: strerror(errno)))
            }
            if count == 0 { break }
            total += Int64(count)
            if let expectedSize, total > expectedSize {
                throw ArchiveError.unreadable(path: path, reason: "file grew while it was being read")
            }
            let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
            try sink(chunk)
        }
        if let expectedSize, total != expectedSize {
            throw ArchiveError.unreadable(path: path, reason: "file shrank while it was being read")
        }
        return total
    }

    /// The target of the symbolic link `name` in the open directory `directory` (`display` names it in errors).
    static func linkTarget(_ name: String, at directory: Int32, display path: String) throws -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlinkat(directory, name, &buffer, buffer.count)
        guard count >= 0 else { throw ArchiveError.unreadable(path: path, reason: String(cString: strerror(errno))) }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
