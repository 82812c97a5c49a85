import CZlib
import Dispatch

/// A block being compressed on a worker thread; `result` waits for it.
///
/// Unchecked sendability: the worker writes `output` and `crc` before it signals `done`, and the
/// writer reads them (and takes the input back) only after waiting for `done`.
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
    /// The strategy of the deflater the block is compressed with.
    private let strategy: Int32
    private let pool: DeflaterPool
    private var output: Result<[UInt8], ArchiveError> = .success([])
    private var crc: UInt = 0
    private let done = DispatchSemaphore(value: 0)

    /// Starts compressing `block` with a deflater of `strategy` from `pool`, on a worker thread or
    /// right here when `inline`.
    init(_ block: DeflateBlock, strategy: Int32, pool: DeflaterPool, inline: Bool) {
        self.block = block
        self.strategy = strategy
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
            output = .success(
                try pool.withDeflater(strategy: strategy) { deflater throws(ArchiveError) in try block.compressed(with: deflater) })
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
