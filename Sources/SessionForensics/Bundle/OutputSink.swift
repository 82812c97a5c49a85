import Archive
import SessionStore

/// Feeds archive bytes into an atomically written output file.
struct OutputSink: ByteSink {
    let output: AtomicFileOutput

    mutating func write(_ bytes: UnsafeRawBufferPointer) throws {
        try output.write(bytes)
    }
}
