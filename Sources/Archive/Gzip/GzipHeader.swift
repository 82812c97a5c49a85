import CZlib

/// The header of one gzip member (RFC 1952): modification time, original name and comment.
public struct GzipHeader: Sendable, Equatable {
    /// Seconds since the Unix epoch of the original file; 0 when not recorded.
    public var modificationTime: UInt32
    /// The original file name (FNAME), when recorded.
    public var name: String?
    /// A comment (FCOMMENT), when recorded.
    public var comment: String?
    /// The operating system byte; 3 is Unix, 255 unknown.
    public var operatingSystem: UInt8

    public init(modificationTime: UInt32 = 0, name: String? = nil, comment: String? = nil, operatingSystem: UInt8 = 3) {
        self.modificationTime = modificationTime
        self.name = name
        self.comment = comment
        self.operatingSystem = operatingSystem
    }

    static let magic: (UInt8, UInt8) = (0x1f, 0x8b)
    static let deflateMethod: UInt8 = 8
    static let flagHeaderCRC: UInt8 = 0x02
    static let flagExtra: UInt8 = 0x04
    static let flagName: UInt8 = 0x08
    static let flagComment: UInt8 = 0x10
    static let reservedFlags: UInt8 = 0xE0

    /// True when `bytes` start like a gzip stream (the two magic bytes and the deflate method).
    public static func isGzip(_ bytes: some Collection<UInt8>) -> Bool {
        var iterator = bytes.makeIterator()
        return iterator.next() == magic.0 && iterator.next() == magic.1 && iterator.next() == deflateMethod
    }

    /// The header's bytes; `level` sets the XFL byte as gzip does (2 for level 9, 4 for level 1).
    func encoded(level: Int) -> [UInt8] {
        var flags: UInt8 = 0
        if name != nil { flags |= GzipHeader.flagName }
        if comment != nil { flags |= GzipHeader.flagComment }
        let time = modificationTime
        var bytes: [UInt8] = [
            GzipHeader.magic.0, GzipHeader.magic.1, GzipHeader.deflateMethod, flags,
            UInt8(truncatingIfNeeded: time), UInt8(truncatingIfNeeded: time >> 8),
            UInt8(truncatingIfNeeded: time >> 16), UInt8(truncatingIfNeeded: time >> 24),
            level >= 9 ? 2 : (level == 1 ? 4 : 0), operatingSystem
        ]
        for field in [name, comment] {
            guard let field else { continue }
            bytes.append(contentsOf: field.utf8.filter { $0 != 0 })
            bytes.append(0)
        }
        return bytes
    }
}

/// Parses a gzip member header that may arrive split across any number of chunks.
struct GzipHeaderParser {
    private enum Stage {
        case fixed
        case extraLength
        case extra(remaining: Int)
        case name
        case comment
        case headerCRC
        case done
    }

    /// Longest name or comment accepted; gzip's own are a file name.
    static let maxFieldLength = 1 << 16

    private(set) var header = GzipHeader()
    private var stage = Stage.fixed
    private var fixed: [UInt8] = []
    private var field: [UInt8] = []
    private var flags: UInt8 = 0
    private var crc: UInt = 0
    /// Where this header starts in the compressed file.
    let start: Int64
    /// Bytes of the header seen so far.
    private(set) var length: Int64 = 0
    let file: String

    init(start: Int64, file: String) {
        self.start = start
        self.file = file
    }

    var isDone: Bool { if case .done = stage { return true } else { return false } }

    /// Consumes header bytes from `input[from...]`; returns how many were used (stops at the header's end).
    mutating func consume(_ input: UnsafeRawBufferPointer, from: Int) throws(ArchiveError) -> Int {
        var index = from
        while index < input.count, !isDone {
            let byte = input[index]
            let covered: Bool
            if case .headerCRC = stage { covered = false } else { covered = true }
            try take(byte)
            if covered { crc = crc32(crc, [byte], 1) }
            index += 1
            length += 1
        }
        return index - from
    }

    private func damaged(_ reason: String, at offset: Int64? = nil) -> ArchiveError {
        .damaged(file: file, offset: offset ?? start + length, reason: reason)
    }

    private mutating func take(_ byte: UInt8) throws(ArchiveError) {
        switch stage {
        case .fixed:
            fixed.append(byte)
            switch fixed.count {
            case 1, 2:
                guard byte == (fixed.count == 1 ? GzipHeader.magic.0 : GzipHeader.magic.1) else {
                    throw start == 0 && length < 2
                        ? .notAnArchive(file: file, reason: "not a gzip file (no gzip magic bytes)")
                        : damaged("bad gzip magic byte 0x\(String(byte, radix: 16))")
                }
            case 3:
                guard byte == GzipHeader.deflateMethod else { throw damaged("unknown compression method \(byte)") }
            case 4:
                guard byte & GzipHeader.reservedFlags == 0 else { throw damaged("reserved gzip header flags set") }
                flags = byte
            case 10:
                header.modificationTime = UInt32(fixed[4]) | UInt32(fixed[5]) << 8 | UInt32(fixed[6]) << 16 | UInt32(fixed[7]) << 24
                header.operatingSystem = fixed[9]
                advance(after: .fixed)
            default:
                break
            }
        case .extraLength:
            field.append(byte)
            if field.count == 2 {
                let count = Int(field[0]) | Int(field[1]) << 8
                field.removeAll()
                stage = count > 0 ? .extra(remaining: count) : .extra(remaining: 0)
                if count == 0 { advance(after: .extra(remaining: 0)) }
            }
        case .extra(let remaining):
            if remaining <= 1 { advance(after: .extra(remaining: 0)) } else { stage = .extra(remaining: remaining - 1) }
        case .name, .comment:
            if byte == 0 {
                let text = String(decoding: field, as: UTF8.self)
                field.removeAll()
                if case .name = stage {
                    header.name = text
                    advance(after: .name)
                } else {
                    header.comment = text
                    advance(after: .comment)
                }
            } else {
                guard field.count < GzipHeaderParser.maxFieldLength else { throw damaged("gzip header name or comment too long") }
                field.append(byte)
            }
        case .headerCRC:
            field.append(byte)
            if field.count == 2 {
                let stored = UInt(field[0]) | UInt(field[1]) << 8
                // Reported at the CRC field itself (`length` does not count the byte being taken yet).
                guard stored == crc & 0xffff else { throw damaged("gzip header CRC mismatch", at: start + length - 1) }
                stage = .done
            }
        case .done:
            break
        }
    }

    /// Moves to the next optional part that the flags announce, or to the end.
    private mutating func advance(after finished: Stage) {
        let order: [(UInt8, Stage)] = [
            (GzipHeader.flagExtra, .extraLength), (GzipHeader.flagName, .name),
            (GzipHeader.flagComment, .comment), (GzipHeader.flagHeaderCRC, .headerCRC)
        ]
        let position: Int
        switch finished {
        case .fixed: position = 0
        case .extraLength, .extra: position = 1
        case .name: position = 2
        case .comment: position = 3
        case .headerCRC, .done: position = 4
        }
        for (flag, next) in order.dropFirst(position) where flags & flag != 0 {
            stage = next
            field.removeAll()
            return
        }
        stage = .done
    }
}
