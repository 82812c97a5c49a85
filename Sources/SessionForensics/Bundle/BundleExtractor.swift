import Archive
import SessionStore

#if canImport(Glibc)
    import FileSystemKit
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `decompress`: a gzip file back to the file it holds, or a `.tar.gz` (ours, or made by
/// `tar -czf`) to a directory, verifying the bundle's manifest when it has one.
///
/// The kind is detected from the content (a tar header after decompression), not from the name.
/// Output goes to a temporary file or directory beside OUT and appears at OUT only when complete:
/// on any refusal, damage or limit, nothing is left behind.
public struct BundleExtractor {
    /// What `decompress` made.
    public struct Result: Sendable, Equatable {
        public enum Kind: String, Sendable {
            case file, directory
            /// A mozLz4 file's JSON (`MozLz4Conversion`).
            case mozLz4 = "mozlz4"
        }
        public var kind: Kind
        public var output: String
        /// Regular files written.
        public var files: Int
        /// Decompressed bytes read.
        public var bytes: Int64
        /// Files checked against a sessionctl manifest, or nil when the archive has none.
        public var verifiedFiles: Int?
    }

    /// The default `--max-size`: 1 GiB of decompressed data.
    public static let defaultMaxSize: Int64 = 1 << 30

    /// Most decompressed bytes accepted.
    public var maxSize: Int64
    public var writer: AtomicWriter
    /// Whether a mozLz4 session file's JSON is written redacted (`SessionstoreRedactor`); any
    /// other input is then refused.
    public var redact = false

    public init(maxSize: Int64 = BundleExtractor.defaultMaxSize, writer: AtomicWriter = AtomicWriter(), redact: Bool = false) {
        self.maxSize = maxSize
        self.writer = writer
        self.redact = redact
    }

    /// The output `decompress` uses when none is given: FILE without `.tar.gz`, `.tgz` or `.gz`,
    /// or a mozLz4 file's plain name (`MozLz4Conversion.plainName`); nil otherwise.
    public static func defaultOutput(for file: String) -> String? {
        if let plain = MozLz4Conversion.plainName(for: file), !plain.hasSuffix("/"), !plain.isEmpty { return plain }
        for suffix in [".tar.gz", ".tgz", ".gz"] where file.hasSuffix(suffix) && file.count > suffix.count {
            let base = String(file.dropLast(suffix.count))
            if !base.hasSuffix("/") { return base }
        }
        return nil
    }

    /// Decompresses `file` to `output`; an existing output is never replaced (`FileSystemError.exists`).
    ///
    /// Both are on the writer's file system. What killed runs left beside `output` is removed
    /// first, even when `output` exists (`AbandonedOutputs`).
    public func decompress(_ file: String, to output: String) throws -> Result {
        let input = try ArchiveInput(file, fileSystem: writer.fileSystem)
        AbandonedOutputs.remove(besides: output, fileSystem: writer.fileSystem)
        if writer.fileSystem.kind(of: output) != nil { throw FileSystemError.exists(path: output) }

        let decoder = try GzipDecoder(file: file, limit: maxSize)
        var target = ExtractionTarget(file: file, output: output, limit: maxSize, writer: writer)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 18, alignment: 16)
        defer { buffer.deallocate() }
        do {
            var first = true
            while true {
                let count = try input.read(into: buffer)
                if count == 0 { break }
                if first {
                    first = false
                    let piece = Array(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                    if MozLz4.isContainer(piece) {
                        return try MozLz4Conversion.decompress(
                            file, first: piece, rest: input, to: output, maxSize: maxSize, writer: writer, redact: redact)
                    }
                    if redact {
                        throw ArchiveError.notAnArchive(
                            file: file, reason: "--redact applies to a Firefox mozLz4 session file, and this is not one")
                    }
                    if MozLz4Conversion.isContainerName(file), piece.first != 0x1F {
                        throw ArchiveError.notAnArchive(
                            file: file, reason: "named like a mozLz4 file, but it does not start with mozLz40 (nor is it gzip)")
                    }
                }
                try decoder.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) { try target.take($0) }
            }
            try decoder.finish()
            return try target.finish(header: decoder.firstHeader, bytes: decoder.produced)
        } catch {
            target.abort()
            throw error
        }
    }
}

/// Where decompressed bytes go: held until the first 512 bytes tell a tar archive from a plain file.
private struct ExtractionTarget {
    private enum Destination {
        case undecided([UInt8])
        case file(AtomicFileOutput)
        case tree(StagedDirectory, TarReader, TarExtraction)
    }

    let file: String
    let output: String
    let limit: Int64
    let writer: AtomicWriter
    private var destination = Destination.undecided([])

    init(file: String, output: String, limit: Int64, writer: AtomicWriter) {
        self.file = file
        self.output = output
        self.limit = limit
        self.writer = writer
    }

    mutating func take(_ bytes: UnsafeRawBufferPointer) throws {
        switch destination {
        case .undecided(var held):
            held.append(contentsOf: bytes)
            guard held.count >= 512 else {
                destination = .undecided(held)
                return
            }
            try decide(held)
            try held.withUnsafeBytes { try route($0) }
        default:
            try route(bytes)
        }
    }

    private mutating func decide(_ head: [UInt8]) throws {
        if TarFormat.isTar(head) {
            let staged = try StagedDirectory(path: output, writer: writer)
            destination = .tree(staged, TarReader(file: file + " (tar stream)"), TarExtraction(staged: staged, file: file, limit: limit))
        } else {
            destination = .file(try writer.begin(output, mode: 0o644))
        }
    }

    private mutating func route(_ bytes: UnsafeRawBufferPointer) throws {
        switch destination {
        case .undecided:
            preconditionFailure("route before decide")
        case .file(let output):
            try output.write(bytes)
        case .tree(let staged, var reader, var extraction):
            destination = .undecided([])
            defer { destination = .tree(staged, reader, extraction) }
            try reader.feed(bytes, into: &extraction)
        }
    }

    mutating func finish(header: GzipHeader?, bytes: Int64) throws -> BundleExtractor.Result {
        if case .undecided(let held) = destination {
            // Fewer than 512 bytes in all: too short for a tar archive, so a plain file.
            try decide(held)
            try held.withUnsafeBytes { try route($0) }
        }
        switch destination {
        case .undecided:
            preconditionFailure("undecided after decide")
        case .file(let output):
            let time = header.map { Int64($0.modificationTime) }
            try output.commit(modificationTime: time == 0 ? nil : time)
            return BundleExtractor.Result(kind: .file, output: self.output, files: 1, bytes: bytes, verifiedFiles: nil)
        case .tree(let staged, let reader, var extraction):
            try reader.finish()
            var verified: Int?
            var subtree = ""
            switch extraction.manifest.map({ BundleManifest.read($0.bytes) }) {
            case .manifest(let manifest)?:
                try ManifestCheck.verify(manifest, digests: extraction.digests, staged: staged, file: file)
                verified = manifest.files.count
                subtree = manifest.root
            case .damaged(let reason)?:
                throw ArchiveError.manifestMismatch(file: file, entry: BundleManifest.memberName, reason: reason)
            case .foreign?, nil:
                try extraction.writeManifestAsFile()
            }
            try extraction.restoreDirectoryTimes()
            try staged.commit(subtree: subtree)
            let files = subtree.isEmpty ? extraction.digests.count : extraction.digests.keys.filter { $0.hasPrefix(subtree + "/") }.count
            return BundleExtractor.Result(kind: .directory, output: output, files: files, bytes: bytes, verifiedFiles: verified)
        }
    }

    func abort() {
        switch destination {
        case .undecided: break
        case .file(let output): output.abort()
        case .tree(let staged, _, _): staged.abort()
        }
    }
}
