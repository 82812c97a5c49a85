import CZlib

/// Compresses a byte stream into one gzip member (RFC 1952) as gzip writes it, streaming into a sink.
///
/// Write any number of times, then `finish()`: the trailer carries the CRC-32 and the size
/// modulo 2^32 of everything written.
public final class GzipEncoder<Sink: ByteSink>: ByteSink {
    /// Where the compressed bytes go.
    public private(set) var sink: Sink
    /// Uncompressed bytes written so far.
    public private(set) var inputCount: Int64 = 0
    /// Compressed bytes produced so far (header and trailer included).
    public private(set) var outputCount: Int64 = 0

    private let stream: UnsafeMutablePointer<z_stream>
    private let buffer: UnsafeMutableRawBufferPointer
    private let header: [UInt8]
    private let level: Int
    private var crc: UInt = 0
    private var headerWritten = false
    private var finished = false

    /// Size of the buffer that collects compressed output before it goes to the sink.
    static var bufferSize: Int { 1 << 17 }

    /// Starts a member compressed at `level` (0 stores, 1 fastest, 9 smallest; gzip's default is 6).
    public init(sink: Sink, level: Int = 6, header: GzipHeader = GzipHeader()) throws(ArchiveError) {
        guard (0...9).contains(level) else { throw .zlib(code: Z_STREAM_ERROR, reason: "compression level \(level) is not 0-9") }
        self.sink = sink
        self.header = header.encoded(level: level)
        self.level = level
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        buffer = .allocate(byteCount: GzipEncoder.bufferSize, alignment: 16)
        let status = czlib_deflate_init_raw(stream, Int32(level))
        guard status == Z_OK else {
            stream.deallocate()
            buffer.deallocate()
            throw .zlib(code: status, reason: "deflateInit2 failed")
        }
        resetOutput()
    }

    deinit {
        deflateEnd(stream)
        stream.deallocate()
        buffer.deallocate()
    }

    private func resetOutput() {
        stream.pointee.next_out = buffer.baseAddress!.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = uInt(buffer.count)
    }

    /// Hands the buffered compressed bytes to the sink.
    private func flushOutput() throws {
        let count = buffer.count - Int(stream.pointee.avail_out)
        if count > 0 {
            outputCount += Int64(count)
            try sink.write(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
        resetOutput()
    }

    private func writeHeaderIfNeeded() throws {
        guard !headerWritten else { return }
        headerWritten = true
        outputCount += Int64(header.count)
        try sink.write(header)
    }

    /// Compresses `bytes`.
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        precondition(!finished, "write after finish")
        try writeHeaderIfNeeded()
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        var offset = 0
        while offset < bytes.count {
            // zlib counts in 32-bit units; feed at most 1 GiB at a time.
            let count = min(bytes.count - offset, 1 << 30)
            let chunk = (base + offset).assumingMemoryBound(to: Bytef.self)
            crc = crc32(crc, chunk, uInt(count))
            stream.pointee.next_in = UnsafeMutablePointer(mutating: chunk)
            stream.pointee.avail_in = uInt(count)
            while stream.pointee.avail_in > 0 {
                let status = deflate(stream, Z_NO_FLUSH)
                guard status == Z_OK || status == Z_BUF_ERROR else { throw ArchiveError.zlib(code: status, reason: "deflate failed") }
                if stream.pointee.avail_out == 0 { try flushOutput() }
            }
            offset += count
        }
        inputCount += Int64(bytes.count)
    }

    /// How deflate looks for repeated strings in what follows.
    public enum Strategy: Sendable {
        /// zlib's default: the best matches it finds.
        case `default`
        /// Fewer short matches, more literals: smaller output for text of near-random characters
        /// (hexadecimal digests), where short matches cost more than the characters they replace.
        case filtered

        var zlibValue: Int32 { self == .filtered ? Z_FILTERED : Z_DEFAULT_STRATEGY }
    }

    /// Switches the strategy for the bytes written from now on (ending the current deflate block);
    /// the output stays one stream that any gzip reader decodes.
    public func setStrategy(_ strategy: Strategy) throws {
        precondition(!finished, "setStrategy after finish")
        try writeHeaderIfNeeded()
        stream.pointee.next_in = nil
        stream.pointee.avail_in = 0
        while true {
            let status = deflateParams(stream, Int32(level), strategy.zlibValue)
            if status == Z_OK { return }
            guard status == Z_BUF_ERROR else { throw ArchiveError.zlib(code: status, reason: "deflateParams failed") }
            try flushOutput()
        }
    }

    /// Compresses the bytes of an array.
    public func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    /// Emits everything written so far and resets the compression dictionary (a full flush), so that
    /// decoding can resume at this point; the output continues the same member.
    public func flush() throws {
        precondition(!finished, "flush after finish")
        try writeHeaderIfNeeded()
        stream.pointee.next_in = nil
        stream.pointee.avail_in = 0
        while true {
            let status = deflate(stream, Z_FULL_FLUSH)
            guard status == Z_OK || status == Z_BUF_ERROR else { throw ArchiveError.zlib(code: status, reason: "deflate failed") }
            let full = stream.pointee.avail_out == 0
            try flushOutput()
            if !full { break }
        }
    }

    /// Ends the deflate stream, writes the trailer, and returns the sink.
    @discardableResult
    public func finish() throws -> Sink {
        precondition(!finished, "finish called twice")
        try writeHeaderIfNeeded()
        stream.pointee.next_in = nil
        stream.pointee.avail_in = 0
        while true {
            let status = deflate(stream, Z_FINISH)
            if status == Z_STREAM_END { break }
            guard status == Z_OK || status == Z_BUF_ERROR else { throw ArchiveError.zlib(code: status, reason: "deflate failed") }
            try flushOutput()
        }
        try flushOutput()
        finished = true
        let size = UInt32(truncatingIfNeeded: inputCount)
        let check = UInt32(truncatingIfNeeded: crc)
        let trailer = (0..<4).map { UInt8(truncatingIfNeeded: check >> UInt32(8 * $0)) }
            + (0..<4).map { UInt8(truncatingIfNeeded: size >> UInt32(8 * $0)) }
        outputCount += 8
        try sink.write(trailer)
        return sink
    }
}

extension GzipEncoder where Sink == MemorySink {
    /// Compresses bytes in memory into one gzip member.
    public static func compress(_ bytes: [UInt8], level: Int = 6, header: GzipHeader = GzipHeader()) throws -> [UInt8] {
        let encoder = try GzipEncoder(sink: MemorySink(), level: level, header: header)
        try encoder.write(bytes)
        return try encoder.finish().bytes
    }
}
