import Archive
import SessionModel
import SessionStore

#if canImport(Glibc)
    import FileSystemKit
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `compress`: a file becomes gzip, a directory a `.tar.gz` bundle (POSIX tar, the directory under
/// its own name, then `MANIFEST.json`), streamed in one pass into a temporary file that appears at
/// the output path only when complete and durable.
public struct BundleCompressor {
    /// What `compress` made.
    public struct Result: Sendable, Equatable {
        public enum Kind: String, Sendable { case gzip, bundle }
        public var kind: Kind
        public var output: String
        /// Regular files stored.
        public var files: Int
        /// Bytes of file content read.
        public var inputBytes: Int64
        /// Bytes written to the output.
        public var outputBytes: Int64
        /// Entries left out (sockets, FIFOs, devices), relative to the input.
        public var skipped: [String]
    }

    /// Compression level 0-9 (6, gzip's default, unless told otherwise).
    public var level: Int
    /// Recorded in the manifest, e.g. `sessionctl 0.1.0`.
    public var tool: String
    public var writer: AtomicWriter

    /// Permissions of a directory that extraction recreates on its own (0755).
    static let usualDirectoryMode: UInt32 = 0o755

    public init(level: Int = 6, tool: String, writer: AtomicWriter = AtomicWriter()) {
        self.level = level
        self.tool = tool
        self.writer = writer
    }

    /// The output path `compress` uses when none is given: `FILE.gz` or `DIR.tar.gz` beside the input.
    public static func defaultOutput(for path: String, isDirectory: Bool) -> String {
        var base = path
        while base.count > 1 && base.hasSuffix("/") { base.removeLast() }
        return base + (isDirectory ? ".tar.gz" : ".gz")
    }

    /// Compresses `path` to `output` (or the default); an existing output is never replaced (`FileSystemError.exists`).
    public func compress(_ path: String, to output: String? = nil) throws -> Result {
        guard let root = DirectoryWalker.status(path, relative: "") else {
            throw ArchiveError.unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        switch root.kind {
        case .file:
            return try compressFile(path, info: root, to: output ?? BundleCompressor.defaultOutput(for: path, isDirectory: false))
        case .directory:
            return try compressDirectory(path, info: root, to: output ?? BundleCompressor.defaultOutput(for: path, isDirectory: true))
        case .symbolicLink, .other:
            throw ArchiveError.unreadable(path: path, reason: "not a regular file or directory")
        }
    }

    private func compressFile(_ path: String, info: WalkedEntry, to output: String) throws -> Result {
        let file = try writer.begin(output, mode: 0o644)
        let header = GzipHeader(modificationTime: UInt32(clamping: info.modificationTime), name: lastPathComponent(path))
        let encoder = try GzipEncoder(sink: OutputSink(output: file), level: level, header: header)
        let size = try FileContentReader().copy(path, expectedSize: nil) { try encoder.write($0) }
        try encoder.finish()
        try file.commit()
        return Result(kind: .gzip, output: output, files: 1, inputBytes: size, outputBytes: encoder.outputCount, skipped: [])
    }

    private func compressDirectory(_ path: String, info: WalkedEntry, to output: String) throws -> Result {
        var trimmed = path
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        var rootName = lastPathComponent(trimmed)
        if rootName == "." || rootName == ".." || rootName == "/" { rootName = lastPathComponent(absolutePath(path)) }
        if rootName.isEmpty || rootName == "/" || rootName == BundleManifest.memberName { rootName = "bundle" }
        let file = try writer.begin(output, mode: 0o644)
        let temporary = DirectoryWalker.status(file.temporaryPath, relative: "")
        // Reading, hashing and tar framing here; deflate on every core (see GzipEncoder).
        let encoder = try GzipEncoder(sink: OutputSink(output: file), level: level)
        var tar = TarWriter(sink: encoder)
        var owners = OwnerNames()
        let reader = FileContentReader()
        var files: [BundleManifest.File] = []
        var inputBytes: Int64 = 0
        var skipped: [String] = []

        func entry(_ walked: WalkedEntry, path: String, kind: TarEntry.Kind) -> TarEntry {
            TarEntry(
                path: path, kind: kind, size: 0, mode: walked.mode, modificationTime: walked.modificationTime,
                userID: Int(walked.userID), groupID: Int(walked.groupID),
                userName: owners.user(walked.userID), groupName: owners.group(walked.groupID))
        }

        try tar.add(entry(info, path: rootName, kind: .directory))
        try DirectoryWalker.walk(path) { walked, parent, name in
            // The output itself, when it is being written inside the input.
            if let temporary, walked.device == temporary.device, walked.inode == temporary.inode { return }
            let member = rootName + "/" + walked.relative
            switch walked.kind {
            case .directory:
                // A directory that holds something and has the usual permissions is recreated by
                // extracting its content; leaving its header out keeps bundles as small as tar's.
                if walked.isEmpty || walked.mode != BundleCompressor.usualDirectoryMode {
                    try tar.add(entry(walked, path: member, kind: .directory))
                }
            case .symbolicLink:
                var link = entry(walked, path: member, kind: .symbolicLink)
                link.linkTarget = try FileContentReader.linkTarget(name, at: parent, display: joinPath(path, walked.relative))
                try tar.add(link)
            case .file:
                let location = joinPath(path, walked.relative)
                var header = entry(walked, path: member, kind: .file)
                header.size = walked.size
                try tar.begin(header)
                var hasher = SHA256()
                let size = try reader.copy(name, at: parent, display: location, expectedSize: walked.size) { chunk in
                    hasher.update(chunk)
                    try tar.write(chunk)
                }
                try tar.end()
                inputBytes += size
                files.append(BundleManifest.File(path: walked.relative, size: size, sha256: SHA256.hex(hasher.finalize())))
            case .other:
                skipped.append(walked.relative)
            }
        }
        let now = Timestamp(unixMicroseconds: currentMicroseconds())
        let manifest = BundleManifest(tool: tool, created: now.iso8601 ?? "", root: rootName, files: files)
        // The manifest is mostly SHA-256 digests in hexadecimal, which deflate codes smaller with
        // fewer short matches (about 12% less on a profile of 2,000 tabs): its own deflate block.
        try encoder.setStrategy(.filtered)
        try tar.add(
            TarEntry(
                path: BundleManifest.memberName, kind: .file, mode: 0o644, modificationTime: now.unixMicroseconds / 1_000_000,
                userID: Int(getuid()), groupID: Int(getgid()), userName: owners.user(getuid()), groupName: owners.group(getgid())),
            content: manifest.encoded())
        try tar.finish()
        try encoder.finish()
        try file.commit()
        return Result(
            kind: .bundle, output: output, files: files.count, inputBytes: inputBytes,
            outputBytes: encoder.outputCount, skipped: skipped)
    }

    private func currentMicroseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000
    }

    private func absolutePath(_ path: String) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard realpath(path, &buffer) != nil else { return path }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}
