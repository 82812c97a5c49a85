import FileSystemKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading standard input whole, under the same size limit as a file.
enum StandardInput {
    /// What error messages call standard input.
    static let name = "standard input"

    /// Every byte of standard input, refused (`FileSystemError.tooLarge`) as soon as it passes
    /// `limit`: an endless stream costs at most the limit and one chunk of memory. Read in chunks
    /// of 1 MiB, joined once at the end (no growing buffer copied again and again, and no room
    /// for the whole limit reserved up front).
    static func readAll(limit: Int = maximumFileSize) throws(FileSystemError) -> [UInt8] {
        let chunkSize = 1 << 20
        var chunks: [[UInt8]] = []
        var total = 0
        while true {
            var chunk = [UInt8](repeating: 0, count: chunkSize)
            var filled = 0
            while filled < chunkSize {
                let count = chunk.withUnsafeMutableBytes { SystemCall.readBytes(0, $0.baseAddress.map { $0 + filled }, chunkSize - filled) }
                guard count >= 0 else {
                    throw FileSystemError.io(operation: "read", path: name, code: errno, reason: String(cString: strerror(errno)))
                }
                if count == 0 { break }
                filled += count
            }
            total += filled
            guard total <= limit else { throw FileSystemError.tooLarge(path: name, size: Int64(total), limit: limit) }
            if filled < chunkSize {
                chunk.removeSubrange(filled...)
                chunks.append(chunk)
                return chunks.count == 1 ? chunks[0] : Array(chunks.joined())
            }
            chunks.append(chunk)
        }
    }
}
