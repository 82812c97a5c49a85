/// Writes a POSIX tar archive (ustar headers, with a pax extended header where a name, link target,
/// size, time or id does not fit ustar's fields) to a sink, streaming.
///
/// `begin` an entry, `write` exactly its size in content, `end` it; `finish` writes the two zero
/// blocks of the end-of-archive marker and pads to a whole 10240-byte record as tar does.
public struct TarWriter<Sink: ByteSink> {
    /// Where the archive's bytes go.
    public private(set) var sink: Sink
    /// Bytes written so far.
    public private(set) var offset: Int64 = 0
    private var remaining: Int64 = 0
    private var inEntry = false

    /// tar's record size: archives are padded to a multiple of it.
    static var recordSize: Int { 10240 }
    private static var zeros: [UInt8] { tarRecordOfZeros }

    public init(sink: Sink) { self.sink = sink }

    private mutating func emit(_ bytes: UnsafeRawBufferPointer) throws {
        try sink.write(bytes)
        offset += Int64(bytes.count)
    }

    private mutating func emit(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try emit($0) }
    }

    private mutating func pad(to multiple: Int) throws {
        let extra = Int(offset % Int64(multiple))
        guard extra > 0 else { return }
        try TarWriter.zeros.withUnsafeBytes { try emit(UnsafeRawBufferPointer(rebasing: $0[0..<(multiple - extra)])) }
    }

    /// Starts an entry: writes its header (preceded by a pax header when needed).
    public mutating func begin(_ entry: TarEntry) throws {
        precondition(!inEntry, "begin inside an entry")
        let size = entry.kind == .file ? entry.size : 0
        var block = [UInt8](repeating: 0, count: TarHeaderBlock.size)
        var pax: [(String, String)] = []

        let path = entry.kind == .directory && !entry.path.hasSuffix("/") ? entry.path + "/" : entry.path
        if !TarWriter.putPath(Array(path.utf8), in: &block) { pax.append(("path", path)) }
        if !TarHeaderBlock.putBytes(entry.linkTarget.utf8, TarHeaderBlock.linkName, in: &block) {
            pax.append(("linkpath", entry.linkTarget))
        }
        TarHeaderBlock.putOctal(Int64(entry.mode & 0o7777), TarHeaderBlock.mode, in: &block)
        if !TarHeaderBlock.putOctal(Int64(entry.userID), TarHeaderBlock.uid, in: &block) { pax.append(("uid", String(entry.userID))) }
        if !TarHeaderBlock.putOctal(Int64(entry.groupID), TarHeaderBlock.gid, in: &block) { pax.append(("gid", String(entry.groupID))) }
        if !TarHeaderBlock.putOctal(size, TarHeaderBlock.fileSize, in: &block) {
            pax.append(("size", String(size)))
            TarHeaderBlock.putOctal(0, TarHeaderBlock.fileSize, in: &block)
        }
        if !TarHeaderBlock.putOctal(entry.modificationTime, TarHeaderBlock.mtime, in: &block) {
            pax.append(("mtime", String(entry.modificationTime)))
            TarHeaderBlock.putOctal(0, TarHeaderBlock.mtime, in: &block)
        }
        block[TarHeaderBlock.typeFlag] = entry.typeFlag
        TarHeaderBlock.putBytes(TarHeaderBlock.posixMagic, TarHeaderBlock.magic, in: &block)
        TarHeaderBlock.putBytes(Array("00".utf8), TarHeaderBlock.version, in: &block)
        if !TarHeaderBlock.putBytes(entry.userName.utf8, TarHeaderBlock.userName, in: &block) { pax.append(("uname", entry.userName)) }
        if !TarHeaderBlock.putBytes(entry.groupName.utf8, TarHeaderBlock.groupName, in: &block) { pax.append(("gname", entry.groupName)) }
        TarHeaderBlock.putOctal(0, TarHeaderBlock.deviceMajor, in: &block)
        TarHeaderBlock.putOctal(0, TarHeaderBlock.deviceMinor, in: &block)

        if !pax.isEmpty {
            if pax.contains(where: { $0.0 == "path" }) {
                // Keep a readable (truncated) name for tars that ignore pax headers.
                for index in TarHeaderBlock.name { block[index] = 0 }
                for index in TarHeaderBlock.prefix { block[index] = 0 }
                TarHeaderBlock.putBytes(TarWriter.truncatedUTF8(path, to: 100), TarHeaderBlock.name, in: &block)
            }
            if pax.contains(where: { $0.0 == "linkpath" }) {
                TarHeaderBlock.putBytes(TarWriter.truncatedUTF8(entry.linkTarget, to: 100), TarHeaderBlock.linkName, in: &block)
            }
            try writePaxHeader(pax, for: path, time: entry.modificationTime)
        }
        TarHeaderBlock.seal(&block)
        try emit(block)
        remaining = size
        inEntry = true
    }

    /// Writes content of the current entry.
    public mutating func write(_ bytes: UnsafeRawBufferPointer) throws {
        precondition(inEntry && Int64(bytes.count) <= remaining, "more content than the entry's size")
        remaining -= Int64(bytes.count)
        try emit(bytes)
    }

    /// Writes content of the current entry.
    public mutating func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    /// Ends the current entry, padding its content to a whole block.
    public mutating func end() throws {
        precondition(inEntry && remaining == 0, "entry ended before all of its content was written")
        inEntry = false
        try pad(to: TarHeaderBlock.size)
    }

    /// Writes one whole entry with its content.
    public mutating func add(_ entry: TarEntry, content: [UInt8] = []) throws {
        var entry = entry
        if entry.kind == .file { entry.size = Int64(content.count) }
        try begin(entry)
        if entry.kind == .file { try write(content) }
        try end()
    }

    /// Writes the end-of-archive marker and record padding; returns the sink.
    @discardableResult
    public mutating func finish() throws -> Sink {
        precondition(!inEntry, "finish inside an entry")
        try TarWriter.zeros.withUnsafeBytes { try emit(UnsafeRawBufferPointer(rebasing: $0[0..<(2 * TarHeaderBlock.size)])) }
        try pad(to: TarWriter.recordSize)
        return sink
    }

    private mutating func writePaxHeader(_ records: [(String, String)], for path: String, time: Int64) throws {
        let data = PaxRecords.encode(records)
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        let base = trimmed.split(separator: "/").last.map(String.init) ?? "entry"
        var block = [UInt8](repeating: 0, count: TarHeaderBlock.size)
        TarHeaderBlock.putBytes(TarWriter.truncatedUTF8("PaxHeaders/" + base, to: 100), TarHeaderBlock.name, in: &block)
        TarHeaderBlock.putOctal(0o644, TarHeaderBlock.mode, in: &block)
        TarHeaderBlock.putOctal(0, TarHeaderBlock.uid, in: &block)
        TarHeaderBlock.putOctal(0, TarHeaderBlock.gid, in: &block)
        TarHeaderBlock.putOctal(Int64(data.count), TarHeaderBlock.fileSize, in: &block)
        TarHeaderBlock.putOctal(max(0, min(time, TarHeaderBlock.octalLimit(12))), TarHeaderBlock.mtime, in: &block)
        block[TarHeaderBlock.typeFlag] = UInt8(ascii: "x")
        TarHeaderBlock.putBytes(TarHeaderBlock.posixMagic, TarHeaderBlock.magic, in: &block)
        TarHeaderBlock.putBytes(Array("00".utf8), TarHeaderBlock.version, in: &block)
        TarHeaderBlock.seal(&block)
        try emit(block)
        try emit(data)
        try pad(to: TarHeaderBlock.size)
    }

    /// Puts a path in the name field, or split at a `/` into prefix and name; false when it does not fit.
    static func putPath(_ path: [UInt8], in block: inout [UInt8]) -> Bool {
        if path.count <= TarHeaderBlock.name.count {
            return TarHeaderBlock.putBytes(path, TarHeaderBlock.name, in: &block)
        }
        for (index, byte) in path.enumerated() where byte == UInt8(ascii: "/") {
            let prefix = path[..<index]
            let name = path[(index + 1)...]
            if prefix.count <= TarHeaderBlock.prefix.count, name.count <= TarHeaderBlock.name.count, !name.isEmpty {
                TarHeaderBlock.putBytes(prefix, TarHeaderBlock.prefix, in: &block)
                return TarHeaderBlock.putBytes(name, TarHeaderBlock.name, in: &block)
            }
            if prefix.count > TarHeaderBlock.prefix.count { break }
        }
        return false
    }

    /// The longest prefix of a string's UTF-8 that fits `limit` bytes without splitting a character.
    static func truncatedUTF8(_ text: String, to limit: Int) -> [UInt8] {
        var out: [UInt8] = []
        for scalar in text.unicodeScalars {
            let bytes = Array(String(scalar).utf8)
            if out.count + bytes.count > limit { break }
            out.append(contentsOf: bytes)
        }
        return out
    }
}

/// One record of zeros, for padding (a generic type cannot have a stored static property).
private let tarRecordOfZeros = [UInt8](repeating: 0, count: 10240)
