import CZlib

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Compresses a byte stream into one gzip member (RFC 1952), streaming into a sink, with deflate
/// running on several threads as pigz does.
///
/// The input is cut into blocks of `blockSize` bytes, each compressed on a worker thread with the
/// 32 KiB before it as its dictionary (see `DeflateBlock`), and written to the sink in order, so
/// that reading the input and deflating it overlap and deflate uses every core. The bytes made
/// depend on the block size, never on the number of threads. Write any number of times, then
/// `finish()`: the trailer carries the CRC-32 and the size modulo 2^32 of everything written.
public final class GzipEncoder<Sink: ByteSink>: ByteSink {
    /// Where the compressed bytes go.
    public private(set) var sink: Sink
    /// Uncompressed bytes written so far.
    public private(set) var inputCount: Int64 = 0
    /// Compressed bytes produced so far (header and trailer included).
    public private(set) var outputCount: Int64 = 0

    /// The gzip header, written before the first block.
    private let header: [UInt8]
    /// The strategy of the blocks from now on.
    private var strategy = Strategy.default
    /// Deflate states, reused from block to block.
    private let deflaters: DeflaterPool
    /// Input bytes a block (the last one of a stream, or one ended early, holds fewer).
    private let blockSize: Int
    /// Blocks being compressed at most; writing waits beyond.
    private let blocksInFlight: Int
    /// With no worker threads, blocks are compressed on the writing thread.
    private let inline: Bool
    /// The error that ended the stream: every later call throws it (the output is incomplete).
    private var failure: (any Error)?
    /// The input of the block being collected.
    private var block: [UInt8] = []
    /// The last 32 KiB of input before `block` (the next block's dictionary).
    private var window: [UInt8] = []
    /// Blocks handed to workers, oldest first, from `nextToWrite` on.
    private var jobs: [DeflateJob] = []
    /// Input buffers of written blocks, to be filled again (fresh ones cost page faults).
    private var spareBuffers: [[UInt8]] = []
    private var nextToWrite = 0
    /// The CRC-32 of the input of the blocks written.
    private var crc: UInt = 0
    private var headerWritten = false
    private var finished = false

    /// The number of cores online (at least 1).
    public static var onlineProcessors: Int { max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

    /// Starts a member compressed at `level` (0 stores, 1 fastest, 9 smallest; gzip's default is 6)
    /// in blocks of `blockSize` bytes (32 KiB to 64 MiB). Blocks go to the system's worker threads,
    /// `threads` of them at a time plus as many waiting (by default one per core online); with
    /// `threads` 0 they are compressed on the writing thread.
    public init(
        sink: Sink, level: Int = 6, header: GzipHeader = GzipHeader(), threads: Int = GzipEncoder.onlineProcessors,
        blockSize: Int = 1 << 17
    ) throws(ArchiveError) {
        guard (0...9).contains(level) else { throw .zlib(code: Z_STREAM_ERROR, reason: "compression level \(level) is not 0-9") }
        self.sink = sink
        self.header = header.encoded(level: level)
        deflaters = DeflaterPool(level: Int32(level))
        self.blockSize = min(max(blockSize, DeflateBlock.windowSize), 1 << 26)
        inline = threads <= 0
        blocksInFlight = 2 * max(threads, 1)
        block.reserveCapacity(self.blockSize)
    }

    private func writeHeaderIfNeeded() throws {
        guard !headerWritten else { return }
        headerWritten = true
        outputCount += Int64(header.count)
        try sink.write(header)
    }

    /// Hands the collected block to a worker (even when empty, for the last one) and starts the next.
    private func submit(_ ending: DeflateBlock.Ending) throws {
        if block.isEmpty && ending == .sync { return }
        var input = spareBuffers.popLast() ?? []
        input.removeAll(keepingCapacity: true)
        input.reserveCapacity(blockSize)
        swap(&input, &block)
        jobs.append(
            DeflateJob(
                DeflateBlock(input: input, dictionary: window, ending: ending), strategy: strategy.zlibValue,
                pool: deflaters, inline: inline))
        if ending == .full {
            window = []
        } else if input.count >= DeflateBlock.windowSize {
            window = Array(input.suffix(DeflateBlock.windowSize))
        } else {
            window = Array((window + input).suffix(DeflateBlock.windowSize))
        }
        while jobs.count - nextToWrite > blocksInFlight { try writeNextBlock() }
    }

    /// Waits for the oldest block handed out and writes it to the sink.
    private func writeNextBlock() throws {
        try writeHeaderIfNeeded()
        let job = jobs[nextToWrite]
        nextToWrite += 1
        let done = try job.result()
        crc = crc32_combine(crc, done.crc, off_t(done.input.count))
        if spareBuffers.count < 2 { spareBuffers.append(done.input) }
        let bytes = done.bytes
        if nextToWrite > 64 {
            jobs.removeFirst(nextToWrite)
            nextToWrite = 0
        }
        outputCount += Int64(bytes.count)
        try sink.write(bytes)
    }

    /// Writes every block handed out.
    private func drain() throws {
        try writeHeaderIfNeeded()
        while nextToWrite < jobs.count { try writeNextBlock() }
    }

    /// Runs `body` unless the stream has failed; a failure in it ends the stream.
    private func unlessFailed(_ body: () throws -> Void) throws {
        if let failure { throw failure }
        do {
            try body()
        } catch {
            failure = error
            throw error
        }
    }

    /// Compresses `bytes`.
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        precondition(!finished, "write after finish")
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        try unlessFailed {
            var offset = 0
            while offset < bytes.count {
                let count = min(bytes.count - offset, blockSize - block.count)
                block.append(contentsOf: UnsafeRawBufferPointer(start: base + offset, count: count))
                inputCount += Int64(count)
                offset += count
                if block.count == blockSize { try submit(.sync) }
            }
        }
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

    /// Switches the strategy for the bytes written from now on (ending the current block); the
    /// output stays one stream that any gzip reader decodes.
    public func setStrategy(_ strategy: Strategy) throws {
        precondition(!finished, "setStrategy after finish")
        try unlessFailed { try submit(.sync) }
        self.strategy = strategy
    }

    /// Compresses the bytes of an array.
    public func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    /// Emits everything written so far and resets the compression dictionary (a full flush), so that
    /// decoding can resume at this point; the output continues the same member.
    public func flush() throws {
        precondition(!finished, "flush after finish")
        try unlessFailed {
            try submit(.full)
            try drain()
        }
    }

    /// Ends the deflate stream, writes the trailer, and returns the sink.
    @discardableResult
    public func finish() throws -> Sink {
        precondition(!finished, "finish called twice")
        try unlessFailed {
            try submit(.last)
            try drain()
        }
        finished = true
        let size = UInt32(truncatingIfNeeded: inputCount)
        let check = UInt32(truncatingIfNeeded: crc)
        let trailer =
            (0..<4).map { UInt8(truncatingIfNeeded: check >> UInt32(8 * $0)) }
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
