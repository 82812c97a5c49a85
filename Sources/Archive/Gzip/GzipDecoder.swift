import CZlib

/// Decompresses a gzip stream fed in chunks of any size, checking each member's CRC-32 and size.
///
/// Accepts what gzip writes: one member or several concatenated (`cat a.gz b.gz`, `gzip >>`),
/// optionally followed by zero padding. Anything else after a member, a bad header, bad deflate
/// data, a CRC or size mismatch, or an early end is reported as `ArchiveError.damaged` with the
/// offset in the compressed stream. Output beyond `limit` bytes stops with `.tooLarge` before it
/// reaches the consumer, so a decompression bomb costs at most `limit` bytes of work.
public final class GzipDecoder {
    private enum State {
        case header(GzipHeaderParser)
        case body
        case trailer(start: Int64, bytes: [UInt8])
        case betweenMembers
        case zeroPadding
    }

    /// The name of the input in messages.
    public let file: String
    /// Most decompressed bytes allowed in total.
    public let limit: Int64
    /// Compressed bytes consumed so far.
    public private(set) var consumed: Int64 = 0
    /// Decompressed bytes produced so far.
    public private(set) var produced: Int64 = 0
    /// Complete members decoded so far.
    public private(set) var members = 0
    /// The header of the first member, once read.
    public private(set) var firstHeader: GzipHeader?

    private var state: State
    private let stream: UnsafeMutablePointer<z_stream>
    private let buffer: UnsafeMutableRawBufferPointer
    private var crc: UInt = 0
    private var memberSize: Int64 = 0

    public init(file: String, limit: Int64 = .max) throws(ArchiveError) {
        self.file = file
        self.limit = limit
        state = .header(GzipHeaderParser(start: 0, file: file))
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        buffer = .allocate(byteCount: 1 << 18, alignment: 16)
        let status = czlib_inflate_init_raw(stream)
        guard status == Z_OK else {
            stream.deallocate()
            buffer.deallocate()
            throw .zlib(code: status, reason: "inflateInit2 failed")
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deallocate()
        buffer.deallocate()
    }

    /// Decompresses `input`, handing each piece of output to `output` (valid only during the call).
    public func feed(_ input: UnsafeRawBufferPointer, output: (UnsafeRawBufferPointer) throws -> Void) throws {
        var index = 0
        while index < input.count {
            switch state {
            case .header(var parser):
                let used = try parser.consume(input, from: index)
                index += used
                consumed += Int64(used)
                if parser.isDone {
                    if firstHeader == nil { firstHeader = parser.header }
                    inflateReset(stream)
                    crc = 0
                    memberSize = 0
                    state = .body
                } else {
                    state = .header(parser)
                }
            case .body:
                index += try inflate(input, from: index, output: output)
            case .trailer(let start, var bytes):
                let take = min(8 - bytes.count, input.count - index)
                bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[index..<(index + take)]))
                index += take
                consumed += Int64(take)
                if bytes.count == 8 {
                    try checkTrailer(bytes, start: start)
                    members += 1
                    state = .betweenMembers
                } else {
                    state = .trailer(start: start, bytes: bytes)
                }
            case .betweenMembers:
                switch input[index] {
                case GzipHeader.magic.0: state = .header(GzipHeaderParser(start: consumed, file: file))
                case 0: state = .zeroPadding
                default: throw ArchiveError.damaged(file: file, offset: consumed, reason: "unexpected data after the end of a gzip member")
                }
            case .zeroPadding:
                if input[index] != 0 {
                    throw ArchiveError.damaged(
                        file: file, offset: consumed, reason: "unexpected data in the zero padding after the gzip data")
                }
                index += 1
                consumed += 1
            }
        }
    }

    /// Runs inflate over `input[from...]` until it needs more input or the member's deflate data ends; returns bytes used.
    private func inflate(_ input: UnsafeRawBufferPointer, from: Int, output: (UnsafeRawBufferPointer) throws -> Void) throws -> Int {
        let available = min(input.count - from, Int(UInt32.max))
        stream.pointee.next_in = UnsafeMutablePointer(mutating: (input.baseAddress! + from).assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = uInt(available)
        var used = 0
        while true {
            stream.pointee.next_out = buffer.baseAddress!.assumingMemoryBound(to: Bytef.self)
            stream.pointee.avail_out = uInt(buffer.count)
            let before = Int(stream.pointee.avail_in)
            let status = CZlib.inflate(stream, Z_NO_FLUSH)
            let step = before - Int(stream.pointee.avail_in)
            used += step
            consumed += Int64(step)
            let count = buffer.count - Int(stream.pointee.avail_out)
            if count > 0 {
                guard produced + Int64(count) <= limit else { throw ArchiveError.tooLarge(file: file, limit: limit) }
                crc = crc32(crc, buffer.baseAddress!.assumingMemoryBound(to: Bytef.self), uInt(count))
                produced += Int64(count)
                memberSize += Int64(count)
                try output(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            }
            switch status {
            case Z_STREAM_END:
                state = .trailer(start: consumed, bytes: [])
                return used
            case Z_OK, Z_BUF_ERROR:
                if stream.pointee.avail_in == 0 && stream.pointee.avail_out > 0 { return used }
                if count == 0 && step == 0 { throw ArchiveError.zlib(code: status, reason: "inflate made no progress") }
            case Z_DATA_ERROR:
                let reason = stream.pointee.msg.map { String(cString: $0) } ?? "invalid deflate data"
                throw ArchiveError.damaged(file: file, offset: max(consumed - 1, 0), reason: "invalid compressed data: \(reason)")
            default:
                throw ArchiveError.zlib(code: status, reason: "inflate failed")
            }
        }
    }

    private func checkTrailer(_ bytes: [UInt8], start: Int64) throws(ArchiveError) {
        let storedCRC = UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16 | UInt32(bytes[3]) << 24
        let storedSize = UInt32(bytes[4]) | UInt32(bytes[5]) << 8 | UInt32(bytes[6]) << 16 | UInt32(bytes[7]) << 24
        let computed = UInt32(truncatingIfNeeded: crc)
        guard storedCRC == computed else {
            throw .damaged(file: file, offset: start, reason: "CRC-32 mismatch (stored \(hex(storedCRC)), data has \(hex(computed)))")
        }
        guard storedSize == UInt32(truncatingIfNeeded: memberSize) else {
            throw .damaged(file: file, offset: start + 4, reason: "size mismatch (stored \(storedSize), data has \(memberSize) bytes)")
        }
    }

    private func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }

    /// Checks that the stream ended after a complete member; an early end is damage at the end offset.
    public func finish() throws(ArchiveError) {
        switch state {
        case .betweenMembers, .zeroPadding:
            return
        case .header(let parser) where consumed == 0 && parser.start == 0:
            throw .notAnArchive(file: file, reason: "empty file, not gzip")
        case .header, .body, .trailer:
            throw .damaged(file: file, offset: consumed, reason: "unexpected end of gzip data (truncated)")
        }
    }
}

extension GzipDecoder {
    /// Decompresses a whole gzip stream held in memory.
    public static func decompress(_ bytes: [UInt8], file: String = "<memory>", limit: Int64 = .max) throws -> [UInt8] {
        let decoder = try GzipDecoder(file: file, limit: limit)
        var result: [UInt8] = []
        try bytes.withUnsafeBytes { raw in
            try decoder.feed(raw) { result.append(contentsOf: $0) }
        }
        try decoder.finish()
        return result
    }
}
