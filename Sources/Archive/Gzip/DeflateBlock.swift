import CZlib
import Dispatch
import Synchronization

/// One block of a deflate stream compressed on its own, as pigz does: primed with the 32 KiB of
/// input before it as the dictionary (so matches reach back across the block boundary), and ended
/// with a sync or full flush (an empty stored block that leaves the output byte-aligned) unless it
/// is the last. Concatenated in order, the outputs of the blocks of a stream are one raw deflate stream.
struct DeflateBlock: Sendable {
    /// How a block ends.
    enum Ending: Sendable {
        /// Byte-aligned; the next block may refer back into this one.
        case sync
        /// Byte-aligned, and the next block does not refer back (decoding can start after it).
        case full
        /// The last block of the stream.
        case last
    }

    /// The block's input.
    var input: [UInt8]
    /// Up to 32 KiB of the input before the block (empty for the first).
    var dictionary: [UInt8]
    var level: Int32
    var strategy: Int32
    var ending: Ending

    /// Deflate's window: the most input before a block that a match can reach.
    static let windowSize = 1 << 15

    /// The raw deflate bytes of the block, made with `deflater` (reset first).
    func compressed(with deflater: Deflater) throws(ArchiveError) -> [UInt8] {
        let stream = deflater.stream
        var status = deflateReset(stream)
        guard status == Z_OK else { throw .zlib(code: status, reason: "deflateReset failed") }
        // Right after a reset nothing is pending, so changing the parameters flushes nothing.
        status = deflateParams(stream, level, strategy)
        guard status == Z_OK else { throw .zlib(code: status, reason: "deflateParams failed") }
        if !dictionary.isEmpty {
            status = dictionary.withUnsafeBufferPointer { deflateSetDictionary(stream, $0.baseAddress, uInt($0.count)) }
            guard status == Z_OK else { throw .zlib(code: status, reason: "deflateSetDictionary failed") }
        }
        // deflateBound covers the worst case of the data; a flush adds at most 10 bytes more.
        let capacity = Int(deflateBound(stream, uLong(input.count))) + 16
        let flush = switch ending {
        case .sync: Z_SYNC_FLUSH
        case .full: Z_FULL_FLUSH
        case .last: Z_FINISH
        }
        var remainingIn: uInt = 0
        let output = [UInt8](unsafeUninitializedCapacity: capacity) { target, count in
            input.withUnsafeBufferPointer { source in
                stream.pointee.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
                stream.pointee.avail_in = uInt(source.count)
                stream.pointee.next_out = target.baseAddress
                stream.pointee.avail_out = uInt(target.count)
                status = deflate(stream, flush)
                remainingIn = stream.pointee.avail_in
                count = target.count - Int(stream.pointee.avail_out)
            }
        }
        let complete = ending == .last ? status == Z_STREAM_END : status == Z_OK && remainingIn == 0 && output.count < capacity
        guard complete else { throw .zlib(code: status, reason: "deflate of a block did not complete") }
        return output
    }
}

/// A zlib deflate state, made once and reset for each block it compresses (making one allocates
/// and clears about 270 KiB). Used by one thread at a time, as `DeflaterPool` lends it.
final class Deflater: @unchecked Sendable {
    /// zlib's state points back at its z_stream, which must therefore not move.
    let stream: UnsafeMutablePointer<z_stream>

    init(level: Int32) throws(ArchiveError) {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let status = czlib_deflate_init_raw(stream, level)
        guard status == Z_OK else {
            stream.deallocate()
            throw .zlib(code: status, reason: "deflateInit2 failed")
        }
    }

    deinit {
        deflateEnd(stream)
        stream.deallocate()
    }
}

/// The deflaters of one encoder, lent to one block at a time.
final class DeflaterPool: @unchecked Sendable {
    private let level: Int32
    private let idle = Mutex<[Deflater]>([])

    init(level: Int32) { self.level = level }

    /// Runs `body` with a deflater no other block is using.
    func withDeflater<T>(_ body: (Deflater) throws(ArchiveError) -> T) throws(ArchiveError) -> T {
        let deflater: Deflater
        if let reused = idle.withLock({ $0.popLast() }) { deflater = reused } else { deflater = try Deflater(level: level) }
        defer { idle.withLock { $0.append(deflater) } }
        return try body(deflater)
    }
}

/// A block being compressed on a worker thread; `result` waits for it.
final class DeflateJob: @unchecked Sendable {
    /// What a finished job hands back.
    struct Finished {
        /// The raw deflate bytes of the block.
        var bytes: [UInt8]
        /// The CRC-32 of the block's input.
        var crc: UInt
        /// The block's input buffer, for the writer to fill again.
        var input: [UInt8]
    }

    private var block: DeflateBlock
    private let pool: DeflaterPool
    private var output: Result<[UInt8], ArchiveError> = .success([])
    private var crc: UInt = 0
    private let done = DispatchSemaphore(value: 0)

    /// Starts compressing `block` on a worker thread, or right here when `inline`.
    init(_ block: DeflateBlock, pool: DeflaterPool, inline: Bool) {
        self.block = block
        self.pool = pool
        if inline {
            run()
        } else {
            DispatchQueue.global(qos: .userInitiated).async { self.run() }
        }
    }

    private func run() {
        crc = block.input.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
        do {
            output = .success(try pool.withDeflater { deflater throws(ArchiveError) in try block.compressed(with: deflater) })
        } catch {
            output = .failure(error)
        }
        done.signal()
    }

    /// The finished block, once ready (call once: the input moves out).
    func result() throws(ArchiveError) -> Finished {
        done.wait()
        var input: [UInt8] = []
        swap(&input, &block.input)
        return Finished(bytes: try output.get(), crc: crc, input: input)
    }
}
