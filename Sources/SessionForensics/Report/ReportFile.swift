import FileSystemKit
import SessionStore

extension ReportPage {
    /// Writes the page for `report` to `output`, piece by piece, into a temporary file beside it
    /// that appears at `output` only when complete and durable (`AtomicFileOutput`); an existing
    /// `output` is never replaced (`FileSystemError.exists`), and on any error nothing is left.
    public static func write(_ report: ProfileReport, to output: String, writer: AtomicWriter = AtomicWriter()) throws(FileSystemError) {
        let page = parts(report)
        let file = try writer.begin(output)
        do throws(FileSystemError) {
            // Through one buffer of `chunkSize` bytes, reused: a page can be hundreds of megabytes.
            var buffer: [UInt8] = []
            buffer.reserveCapacity(chunkSize)
            for var part in page {
                let failure = part.withUTF8 { utf8 -> FileSystemError? in
                    var start = 0
                    while start < utf8.count {
                        let end = min(start + chunkSize, utf8.count)
                        buffer.removeAll(keepingCapacity: true)
                        buffer.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<end]))
                        do throws(FileSystemError) { try file.write(buffer[...]) } catch { return error }
                        start = end
                    }
                    return nil
                }
                if let failure { throw failure }
            }
            try file.commit()
        } catch {
            file.abort()
            throw error
        }
    }

    /// The bytes handed to each write of a page.
    static let chunkSize = 1 << 20
}
