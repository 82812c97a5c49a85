import Archive
import FileSystemKit
import SessionFormats
import SessionStore

/// `decompress` and `compress` between Mozilla's mozLz4 container (Firefox desktop's
/// `sessionstore.jsonlz4`, `recovery.baklz4`, `previous.jsonlz4`, `upgrade.jsonlz4-<build>`)
/// and the plain JSON it holds, through liblz4 (`MozLz4`).
public enum MozLz4Conversion {
    /// Whether a file name is one Firefox gives a mozLz4 file (or `.mozlz4`, its other files' suffix).
    public static func isContainerName(_ path: String) -> Bool {
        let name = lastPathComponent(path)
        return [".jsonlz4", ".baklz4", ".mozlz4"].contains { name.hasSuffix($0) && name.count > $0.count }
            || name.contains(".jsonlz4-")
    }

    /// Whether Firefox reads a mozLz4 file of this name as JSON: its session files
    /// (`.jsonlz4`, `.baklz4`, `.jsonlz4-<build>`) and `<name>.json.mozlz4`.
    public static func holdsJSON(_ path: String) -> Bool {
        let name = lastPathComponent(path)
        return name.hasSuffix(".jsonlz4") || name.hasSuffix(".baklz4") || name.contains(".jsonlz4-") || name.hasSuffix(".json.mozlz4")
    }

    /// The plain name `decompress` gives a mozLz4 file when no output is named:
    /// `sessionstore.jsonlz4` to `sessionstore.json`, `recovery.baklz4` to `recovery.bak`,
    /// `upgrade.jsonlz4-<build>` to `upgrade.json-<build>`, `x.mozlz4` to `x`; nil for other names.
    public static func plainName(for path: String) -> String? {
        guard isContainerName(path) else { return nil }
        if path.hasSuffix(".mozlz4") { return String(path.dropLast(".mozlz4".count)) }
        if path.hasSuffix("lz4") { return String(path.dropLast(3)) }
        guard let range = path.range(of: ".jsonlz4-", options: .backwards) else { return nil }
        return path.replacingCharacters(in: range, with: ".json-")
    }

    /// Decodes the container whose first piece is `first` and whose rest `input` gives, and
    /// writes the JSON to `output` atomically; a damaged or cut block writes nothing
    /// (`ArchiveError.damaged` at the file offset where decoding stopped).
    static func decompress(
        _ file: String, first: [UInt8], rest input: ArchiveInput, to output: String, maxSize: Int64, writer: AtomicWriter,
        redact: Bool = false
    ) throws -> BundleExtractor.Result {
        var bytes = first
        // No valid block of the declared size (or of --max-size, when that is less) is longer than
        // this: reading stops there.
        let declared = MozLz4.declaredSize(first)
        let allowed = min(declared, Int(clamping: maxSize))
        let longest = min(MozLz4.largestBlock, allowed + allowed / 255 + 16)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 18, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = try input.read(into: buffer)
            if count == 0 { break }
            guard bytes.count + count <= longest + MozLz4.headerSize else {
                // A block too long for --max-size is refused for that limit, not called damaged.
                if declared > allowed { throw ArchiveError.tooLarge(file: file, limit: maxSize) }
                throw ArchiveError.damaged(
                    file: file, offset: Int64(longest + MozLz4.headerSize),
                    reason: "longer than any LZ4 block of the \(declared) bytes the header gives")
            }
            bytes += UnsafeRawBufferPointer(rebasing: buffer[0..<count])
        }
        let decoded = try MozLz4.decode(bytes, file: file, limit: Int(clamping: maxSize))
        if let damage = decoded.damage {
            throw ArchiveError.damaged(
                file: file, offset: Int64(damage.fileOffset),
                reason: "\(damage.reason) (the first \(decoded.bytes.count) of its \(decoded.declaredSize) bytes decode)")
        }
        var json = decoded.bytes
        if redact {
            // A session document redacted for sharing (nothing is written unless it parses whole).
            let document = try JSONParser.parse(json, file: file + " (its JSON)", takingLoneSurrogates: true, maxDepth: nil)
            guard let redacted = BrowserFamilies.all.lazy.compactMap({ $0.redactedSessionDocument(document) }).first else {
                throw ArchiveError.damaged(
                    file: file, offset: 0,
                    reason: "its JSON is no session document a browser sessionctl reads keeps, so --redact cannot redact it")
            }
            json = redacted.serializedBytes(pretty: false)
        }
        try write(json, to: output, writer: writer)
        return BundleExtractor.Result(kind: .mozLz4, output: output, files: 1, bytes: Int64(decoded.bytes.count), verifiedFiles: nil)
    }

    /// Writes `bytes` to `output` atomically and durably (nothing is left there on failure).
    private static func write(_ bytes: [UInt8], to output: String, writer: AtomicWriter) throws {
        let target = try writer.begin(output, mode: 0o644)
        do {
            try target.write(bytes[...])
            try target.commit()
        } catch {
            target.abort()
            throw error
        }
    }

    /// Compresses the file `path` into a mozLz4 container at `output`, written atomically.
    static func compress(_ path: String, to output: String, writer: AtomicWriter) throws -> BundleCompressor.Result {
        guard writer.fileSystem.resolvedKind(of: path) == .file else {
            throw ArchiveError.unreadable(path: path, reason: "not a regular file (a mozLz4 file holds one file)")
        }
        let bytes: [UInt8]
        do {
            bytes = try writer.fileSystem.read(path, limit: MozLz4.largestBlock)
        } catch {
            throw ArchiveError.unreadable(path: path, reason: error.reason)
        }
        if holdsJSON(output) {
            // Firefox reads these files as JSON (JSON.parse, with no depth limit): anything else it refuses.
            do {
                try JSONParser.check(bytes, file: path, takingLoneSurrogates: true, maxDepth: nil)
            } catch {
                throw FormatError.invalidDocument(
                    path: path,
                    reason: "not JSON, which Firefox reads from \(lastPathComponent(output)) (\(error.description)); nothing written")
            }
        }
        let encoded = try MozLz4.encode(bytes, file: path)
        try write(encoded, to: output, writer: writer)
        return BundleCompressor.Result(
            kind: .mozLz4, output: output, files: 1, inputBytes: Int64(bytes.count), outputBytes: Int64(encoded.count), skipped: [])
    }
}
