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
            for part in page { try file.write(Array(part.utf8)[...]) }
            try file.commit()
        } catch {
            file.abort()
            throw error
        }
    }
}
