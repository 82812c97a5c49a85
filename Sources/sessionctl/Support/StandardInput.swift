#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FileSystemKit

/// Reading standard input whole, under the same size limit as a file.
enum StandardInput {
    /// What error messages call standard input.
    static let name = "standard input"

    /// Every byte of standard input, refused (`FileSystemError.tooLarge`) as soon as it passes
    /// `limit`: an endless stream costs at most the limit and one chunk of memory. The room for
    /// `limit` bytes is reserved up front (pages are only used as they are written), so the
    /// buffer never grows by copying.
    static func readAll(limit: Int = maximumFileSize) throws(FileSystemError) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(limit)
        let chunkSize = 1 << 20
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        while true {
            let count = chunk.withUnsafeMutableBytes { SystemCall.readBytes(0, $0.baseAddress, chunkSize) }
            if count == 0 { return bytes }
            guard count > 0 else {
                throw FileSystemError.io(operation: "read", path: name, code: errno, reason: String(cString: strerror(errno)))
            }
            guard bytes.count + count <= limit else {
                throw FileSystemError.tooLarge(path: name, size: Int64(bytes.count + count), limit: limit)
            }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }
}
