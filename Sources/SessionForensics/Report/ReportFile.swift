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
            // Each piece as it is, at most `chunkSize` bytes a write: a page can be hundreds of megabytes.
            for part in page {
                var start = 0
                while start < part.count {
                    let end = min(start + chunkSize, part.count)
                    try file.write(part[start..<end])
                    start = end
                }
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
