#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Archive

/// Reads files for `compress`: content streamed in large chunks, link targets.
enum FileContentReader {
    static let chunkSize = 1 << 18

    /// Streams a file's content to `sink`; returns its size.
    ///
    /// With `expectedSize`, the file must still have that size (it was already written in the tar
    /// header): a file that grows or shrinks while it is read is an error, not a silently wrong archive.
    static func copy(_ path: String, expectedSize: Int64?, to sink: (UnsafeRawBufferPointer) throws -> Void) throws -> Int64 {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { throw ArchiveError.unreadable(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        var total: Int64 = 0
        while true {
            let count = read(fd, buffer.baseAddress, buffer.count)
            if count < 0 {
                if errno == EINTR { continue }
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

    /// The target of a symbolic link.
    static func linkTarget(_ path: String) throws -> String {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = buffer.withUnsafeMutableBytes { readlink(path, $0.baseAddress!.assumingMemoryBound(to: CChar.self), $0.count) }
        guard count >= 0 else { throw ArchiveError.unreadable(path: path, reason: String(cString: strerror(errno))) }
        return String(decoding: buffer[0..<count], as: UTF8.self)
    }
}
