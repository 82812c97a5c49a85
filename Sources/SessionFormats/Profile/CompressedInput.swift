import Archive
import FileSystemKit
import SessionModel

/// Opens a gzip file given as input, in memory: a `.tar.gz` (a bundle made by `compress`, or any
/// `tar -czf` of a profile, a storage or session directory) or one gzipped session file.
///
/// Recognised by content (the gzip magic bytes), never by name. Nothing is extracted to disk;
/// decompression stops at `maxSize` bytes.
public enum CompressedInput {
    /// The most decompressed data read into memory for one input (256 MiB: a bundle of every
    /// session of a large profile fits, and a reader's memory stays well below the 1 GiB a single
    /// member may have when `decompress` unpacks it to disk).
    static let maxSize: Int64 = 256 << 20

    /// Whether `bytes` begin as a gzip file does.
    static func isGzip(_ bytes: FileBytes) -> Bool {
        bytes.count >= 3 && GzipHeader.isGzip(bytes[0..<3])
    }

    /// True when the file at `path` begins with the gzip magic bytes.
    public static func isGzip(_ path: String) -> Bool {
        guard let head = try? FileStream(path).read(upTo: 3) else { return false }
        return head.count == 3 && GzipHeader.isGzip(head)
    }

    /// Reads the archive at `path` and locates the sessions in it; `ancestry` holds the names of
    /// the directories enclosing the file.
    ///
    /// With `member`, the input is that path inside the archive (relative to its root, as the
    /// reading commands print paths inside a bundle): a directory or a file of the tar archive.
    static func open(
        _ path: String, member: String? = nil, ancestry: [String], limit: Int64 = maxSize, browser: (any BrowserFamily)? = nil
    ) throws(FormatError) -> LocatedInput {
        let content: DecompressedContent
        do {
            content = try decompress(path, limit: limit)
        } catch let error as ArchiveError {
            throw formatError(error, path: path, limit: limit)
        } catch let error as FormatError {
            throw error
        } catch {
            throw .unreadable(path: path, reason: "\(error)")
        }
        let fileName = lastName(path)
        if let member {
            guard case .tree(let tree) = content else {
                throw .unreadable(path: joinPath(path, member), reason: "\(fileName) holds one file, not a bundle of members")
            }
            return try locate(member, in: tree, ancestry: ancestry + [stem(fileName)], path: path, browser: browser)
        }
        switch content {
        case .file(let bytes, let storedName):
            let name = storedName ?? (fileName.hasSuffix(".gz") && fileName.count > 3 ? String(fileName.dropLast(3)) : fileName)
            let tree = ArchiveTree(files: [name: bytes]).tree(displayName: path)
            return try BrowserFamilies.locate(tree: tree, file: name, ancestry: ancestry, browser: browser)
        case .tree(let tree):
            var ancestry = ancestry + [stem(fileName)]
            var level = tree
            // Descend through wrapping directories (`tar -czf x.tar.gz profile`, a bundle's root).
            for depth in 0..<64 {
                let names = level.list("").filter { !(depth == 0 && $0 == "MANIFEST.json" && level.kind(of: $0) == .file) }
                guard names.count == 1, let only = names.first, level.kind(of: only) == .directory,
                    Tab.id(fromDirectoryName: only) == nil
                else { break }
                level = level.subtree(only)
                ancestry.append(only)
            }
            return try BrowserFamilies.locate(tree: level, ancestry: ancestry, browser: browser)
        }
    }

    /// The input at `member` (a relative path) of an archive's tree.
    private static func locate(
        _ member: String, in tree: ReadableTree, ancestry: [String], path: String, browser: (any BrowserFamily)?
    ) throws(FormatError) -> LocatedInput {
        let parts = pathComponents(member)
        switch tree.kind(of: member) {
        case .directory?:
            return try BrowserFamilies.locate(tree: tree.subtree(member), ancestry: ancestry + parts, browser: browser)
        case .file?:
            let parent = parentPath(member)
            return try BrowserFamilies.locate(
                tree: parent.isEmpty ? tree : tree.subtree(parent), file: lastPathComponent(member),
                ancestry: ancestry + parts.dropLast(), browser: browser)
        default:
            throw .unreadable(path: joinPath(path, member), reason: "no member \(member) in \(lastName(path))")
        }
    }

    /// What a gzip file held.
    private enum DecompressedContent {
        /// One file, with the name its gzip header recorded (when that is a plain name).
        case file([UInt8], String?)
        case tree(ReadableTree)
    }

    /// Decompresses the whole file, telling a tar archive from a plain file by its first block.
    private static func decompress(_ path: String, limit: Int64) throws -> DecompressedContent {
        let stream: FileStream
        do { stream = try FileStream(path) } catch { throw FormatError(reading: error, named: path) }
        let decoder = try GzipDecoder(file: path, limit: limit)
        var plain: [UInt8] = []
        var tar: (reader: TarReader, builder: ArchiveTreeBuilder)?
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 18, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count: Int
            do { count = try stream.read(into: buffer) } catch { throw FormatError(reading: error, named: path) }
            if count == 0 { break }
            try decoder.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) { chunk in
                if var (reader, builder) = tar {
                    tar = nil
                    try reader.feed(chunk, into: &builder)
                    tar = (reader, builder)
                    return
                }
                plain.append(contentsOf: chunk)
                if plain.count >= 512 && TarFormat.isTar(plain) {
                    var reader = TarReader(file: path + " (tar stream)")
                    var builder = ArchiveTreeBuilder(file: path)
                    try plain.withUnsafeBytes { try reader.feed($0, into: &builder) }
                    plain = []
                    tar = (reader, builder)
                }
            }
        }
        try decoder.finish()
        if let (reader, builder) = tar {
            try reader.finish()
            return .tree(builder.tree(displayName: path))
        }
        let stored = decoder.firstHeader?.name.flatMap { name -> String? in
            guard case .success(let parts) = ArchivePath.components(of: name), parts.count == 1 else { return nil }
            return parts[0]
        }
        return .file(plain, stored)
    }

    private static func formatError(_ error: ArchiveError, path: String, limit: Int64) -> FormatError {
        switch error {
        case .damaged(let file, let offset, let reason):
            return .damaged(file: file, offset: Int(clamping: offset), reason: reason)
        case .notAnArchive(let file, let reason):
            return .notASession(path: file, reason: reason)
        case .unsafeEntry(let file, let entry, let reason):
            return .notASession(path: file, reason: "archive entry '\(entry)' refused: \(reason)")
        case .tooLarge(let file, _):
            return .notASession(
                path: file,
                reason:
                    "decompressed content exceeds \(limit) bytes, the limit for reading an archive in place (sessionctl decompress unpacks larger ones to disk)"
            )
        case .manifestMismatch(let file, let entry, let reason):
            return .notASession(path: file, reason: "\(entry): \(reason)")
        case .unreadable(let file, let reason):
            return .unreadable(path: file, reason: reason)
        case .zlib:
            return .notASession(path: path, reason: error.description)
        }
    }

    private static func lastName(_ path: String) -> String {
        pathComponents(path).last ?? path
    }

    /// A file name without its archive suffix.
    private static func stem(_ name: String) -> String {
        for suffix in [".tar.gz", ".tgz", ".gz"] where name.hasSuffix(suffix) && name.count > suffix.count {
            return String(name.dropLast(suffix.count))
        }
        return name
    }
}
