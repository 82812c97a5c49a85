import Archive
import ChromeIOS
import SessionForensics
import SessionFormats

#if canImport(Glibc)
    import Glibc
#endif

/// A `.tar.gz` given to a reading command: `InputOpener` decompresses it in memory into an
/// `ArchiveTree`, locates the sessions in it, and inspect (with histories) and validate read them.
///
/// The input is the tar stream itself (checksums sealed as in the tar target), gzipped here, so
/// that mutations act on the archive's structure; an input that is already gzip is used as it is.
enum BundleFuzz {
    /// The file the bundle is written to: the opener reads paths, as the commands do.
    static let path: String = {
        let directory = FuzzPaths.repository + "/Fuzz/work/bundle"
        mkdir(directory, 0o700)
        return directory + "/input-\(getpid()).tar.gz"
    }()

    @Sendable static func run(_ bytes: [UInt8]) {
        let file: [UInt8]
        if GzipHeader.isGzip(bytes) {
            file = bytes
        } else {
            guard let compressed = try? GzipEncoder<MemorySink>.compress(ArchiveFuzz.sealed(bytes), level: 1) else {
                fatalError("gzip encoder failed")
            }
            file = compressed
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { FuzzPaths.fail("bundle: cannot write \(path)") }
        let written = file.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        guard written == file.count else { FuzzPaths.fail("bundle: short write to \(path)") }

        guard let input = try? InputOpener.open(path) else { return }
        // One read as deep as a rewrite, every session made of it, validated whole and as validate reads.
        let read = InputRead(input, depth: .rewrite, backups: true)
        _ = SessionReader(input: input).sessions(of: read, history: true)
        _ = Validator().validate(read)
        _ = Validator().validate(input)
    }
}
