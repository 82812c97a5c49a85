/// Receives the members of a tar archive as `TarReader` finds them.
public protocol TarEntryHandler {
    /// A member starts; for a regular file, its content follows in `content` calls.
    mutating func begin(_ entry: TarEntry) throws
    /// Some content of the current regular file (valid only during the call).
    mutating func content(_ bytes: UnsafeRawBufferPointer) throws
    /// The current member is complete.
    mutating func end() throws
}

/// Reads a tar archive fed in chunks of any size: ustar, pax (`x` and `g` headers) and GNU tar's
/// formats (long names `L`/`K`, base-256 numbers), as GNU tar and others write them.
///
/// Damage (a bad header checksum, a malformed number or pax record, an early end) is reported as
/// `ArchiveError.damaged` with the offset in the tar stream. Everything after the end-of-archive
/// marker is ignored, as tar does.
public struct TarReader {
    private enum State {
        case header
        case content(remaining: Int64, padding: Int)
        case metadata(kind: UInt8, remaining: Int64, padding: Int, bytes: [UInt8])
        case skip(remaining: Int64)
        case ended
    }

    /// Longest pax or GNU long-name record accepted.
    public static let maxMetadataSize = 1 << 20

    /// The name of the stream in messages.
    public let file: String
    /// Bytes consumed so far.
    public private(set) var offset: Int64 = 0
    /// True once the end-of-archive marker was read.
    public var isEnded: Bool { if case .ended = state { return true } else { return false } }

    private var state = State.header
    private var block: [UInt8] = []
    private var headerOffset: Int64 = 0
    private var currentPath = ""
    private var pendingPax: [String: String] = [:]
    private var globalPax: [String: String] = [:]
    private var longName: String?
    private var longLink: String?

    public init(file: String) {
        self.file = file
        block.reserveCapacity(TarHeaderBlock.size)
    }

    /// Reads `input`, calling `handler` for each member and its content.
    public mutating func feed<Handler: TarEntryHandler>(_ input: UnsafeRawBufferPointer, into handler: inout Handler) throws {
        var index = 0
        while index < input.count {
            switch state {
            case .ended:
                offset += Int64(input.count - index)
                return
            case .header:
                let take = min(TarHeaderBlock.size - block.count, input.count - index)
                if block.isEmpty { headerOffset = offset }
                block.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[index..<(index + take)]))
                index += take
                offset += Int64(take)
                if block.count == TarHeaderBlock.size {
                    let header = block
                    block.removeAll(keepingCapacity: true)
                    try header.withUnsafeBytes { try readHeader($0, into: &handler) }
                }
            case .content(let remaining, let padding):
                let take = Int(min(remaining, Int64(input.count - index)))
                if take > 0 {
                    try handler.content(UnsafeRawBufferPointer(rebasing: input[index..<(index + take)]))
                    index += take
                    offset += Int64(take)
                }
                if remaining - Int64(take) == 0 {
                    try handler.end()
                    state = padding > 0 ? .skip(remaining: Int64(padding)) : .header
                } else {
                    state = .content(remaining: remaining - Int64(take), padding: padding)
                }
            case .metadata(let kind, let remaining, let padding, var bytes):
                let take = Int(min(remaining, Int64(input.count - index)))
                bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[index..<(index + take)]))
                index += take
                offset += Int64(take)
                if remaining - Int64(take) == 0 {
                    try applyMetadata(kind: kind, bytes)
                    state = padding > 0 ? .skip(remaining: Int64(padding)) : .header
                } else {
                    state = .metadata(kind: kind, remaining: remaining - Int64(take), padding: padding, bytes: bytes)
                }
            case .skip(let remaining):
                let take = Int(min(remaining, Int64(input.count - index)))
                index += take
                offset += Int64(take)
                state = remaining - Int64(take) == 0 ? .header : .skip(remaining: remaining - Int64(take))
            }
        }
    }

    /// Checks that the stream did not end inside a member.
    public func finish() throws(ArchiveError) {
        switch state {
        case .ended:
            return
        case .header where block.isEmpty:
            return
        case .header:
            throw .damaged(file: file, offset: offset, reason: "tar stream ends inside a header block (truncated)")
        case .content, .metadata, .skip:
            throw .damaged(file: file, offset: offset, reason: "tar stream ends inside '\(currentPath)' (truncated)")
        }
    }

    private func damaged(_ reason: String) -> ArchiveError {
        .damaged(file: file, offset: headerOffset, reason: reason)
    }

    private static func padding(for size: Int64) -> Int {
        Int((Int64(TarHeaderBlock.size) - size % Int64(TarHeaderBlock.size)) % Int64(TarHeaderBlock.size))
    }

    /// `size` rounded up to whole blocks; a size too large for that (a base-256 or pax size near
    /// 2^63) stays at `Int64.max`, which no stream reaches, so it ends as a truncated member.
    private static func paddedSize(_ size: Int64) -> Int64 {
        let (sum, overflow) = size.addingReportingOverflow(Int64(padding(for: size)))
        return overflow ? .max : sum
    }

    private mutating func readHeader<Handler: TarEntryHandler>(_ raw: UnsafeRawBufferPointer, into handler: inout Handler) throws {
        if TarHeaderBlock.isZero(raw) {
            state = .ended
            return
        }
        guard TarHeaderBlock.checksumMatches(raw) else { throw damaged("tar header checksum mismatch") }
        let flag = raw[TarHeaderBlock.typeFlag]
        let size: Int64
        do {
            size = try TarHeaderBlock.number(raw, TarHeaderBlock.fileSize)
        } catch {
            throw damaged("tar header has a malformed size field")
        }
        guard size >= 0 else { throw damaged("tar header has a negative size") }
        let padding = TarReader.padding(for: size)
        switch flag {
        case UInt8(ascii: "x"), UInt8(ascii: "g"), UInt8(ascii: "L"), UInt8(ascii: "K"):
            guard size <= TarReader.maxMetadataSize else { throw damaged("tar extended header of \(size) bytes is too large") }
            state = size > 0 ? .metadata(kind: flag, remaining: size, padding: padding, bytes: []) : .header
            if size == 0 { try applyMetadata(kind: flag, []) }
            return
        case UInt8(ascii: "V"):
            // A volume label names the archive, not a member.
            state = size > 0 ? .skip(remaining: TarReader.paddedSize(size)) : .header
            return
        default:
            break
        }
        var entry = try makeEntry(raw, flag: flag, size: size)
        pendingPax = [:]
        longName = nil
        longLink = nil
        currentPath = entry.path
        // The size after pax overrides; only regular files' content is handed on. GNU dumpdir
        // listings and other members' data are skipped; links, devices and directories have none.
        let stored = entry.size
        let carriesContent = entry.kind == .file
        let skipped = !carriesContent && (flag == UInt8(ascii: "D") || entry.kind == .other(flag)) ? stored : 0
        if !carriesContent { entry.size = 0 }
        try handler.begin(entry)
        if carriesContent && stored > 0 {
            state = .content(remaining: stored, padding: TarReader.padding(for: stored))
        } else {
            try handler.end()
            state = skipped > 0 ? .skip(remaining: TarReader.paddedSize(skipped)) : .header
        }
    }

    private func makeEntry(_ raw: UnsafeRawBufferPointer, flag: UInt8, size: Int64) throws -> TarEntry {
        let magic = Array(raw[TarHeaderBlock.magic])
        var path = TarHeaderBlock.string(raw, TarHeaderBlock.name)
        if magic == TarHeaderBlock.posixMagic {
            let prefix = TarHeaderBlock.string(raw, TarHeaderBlock.prefix)
            if !prefix.isEmpty { path = prefix + "/" + path }
        }
        func number(_ field: Range<Int>, _ name: String) throws(ArchiveError) -> Int64 {
            do { return try TarHeaderBlock.number(raw, field) } catch { throw damaged("tar header has a malformed \(name) field") }
        }
        var entry = TarEntry(
            path: path, kind: TarEntry.kind(ofTypeFlag: flag), size: size,
            mode: UInt32(truncatingIfNeeded: try number(TarHeaderBlock.mode, "mode") & 0o7777),
            modificationTime: try number(TarHeaderBlock.mtime, "mtime"),
            linkTarget: TarHeaderBlock.string(raw, TarHeaderBlock.linkName),
            userID: Int(try number(TarHeaderBlock.uid, "uid")), groupID: Int(try number(TarHeaderBlock.gid, "gid")),
            userName: TarHeaderBlock.string(raw, TarHeaderBlock.userName),
            groupName: TarHeaderBlock.string(raw, TarHeaderBlock.groupName))
        if let longName { entry.path = longName }
        if let longLink { entry.linkTarget = longLink }
        let pax = globalPax.merging(pendingPax) { $1 }
        if let value = pax["path"] { entry.path = value }
        if let value = pax["linkpath"] { entry.linkTarget = value }
        if let value = pax["size"] {
            guard let number = Int64(value), number >= 0 else { throw damaged("pax size '\(value)' is not a size") }
            entry.size = number
        }
        if let value = pax["mtime"] {
            let whole = value.split(separator: ".", maxSplits: 1).first.map(String.init) ?? value
            guard let number = Int64(whole) else { throw damaged("pax mtime '\(value)' is not a time") }
            entry.modificationTime = number
        }
        if let value = pax["uid"] { entry.userID = Int(value) ?? entry.userID }
        if let value = pax["gid"] { entry.groupID = Int(value) ?? entry.groupID }
        if let value = pax["uname"] { entry.userName = value }
        if let value = pax["gname"] { entry.groupName = value }
        while entry.path.count > 1 && entry.path.hasSuffix("/") { entry.path.removeLast() }
        return entry
    }

    private mutating func applyMetadata(kind: UInt8, _ bytes: [UInt8]) throws(ArchiveError) {
        switch kind {
        case UInt8(ascii: "L"), UInt8(ascii: "K"):
            let end = bytes.firstIndex(of: 0) ?? bytes.count
            let text = String(decoding: bytes[..<end], as: UTF8.self)
            if kind == UInt8(ascii: "L") { longName = text } else { longLink = text }
        default:
            guard let records = PaxRecords.decode(bytes) else { throw damaged("malformed pax extended header") }
            if kind == UInt8(ascii: "g") {
                globalPax.merge(records) { $1 }
            } else {
                pendingPax.merge(records) { $1 }
            }
        }
    }
}
