import CZlib
import Synchronization

/// A zlib deflate state of one level and strategy, made once and reset for each block it
/// compresses (making one allocates and clears about 270 KiB). Its parameters never change, so no
/// zlib version has anything to flush between blocks. Used by one thread at a time, as
/// `DeflaterPool` lends it.
final class Deflater: @unchecked Sendable {
    /// zlib's state points back at its z_stream, which must therefore not move.
    let stream: UnsafeMutablePointer<z_stream>

    init(level: Int32, strategy: Int32) throws(ArchiveError) {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let status = czlib_deflate_init_raw(stream, level, strategy)
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

/// The deflaters of one encoder, by strategy, lent to one block at a time.
final class DeflaterPool: Sendable {
    private let level: Int32
    private let idle = Mutex<[Int32: [Deflater]]>([:])

    init(level: Int32) { self.level = level }

    /// Runs `body` with a deflater of `strategy` that no other block is using.
    func withDeflater<T>(strategy: Int32, _ body: (Deflater) throws(ArchiveError) -> T) throws(ArchiveError) -> T {
        let deflater: Deflater
        if let reused = idle.withLock({ $0[strategy]?.popLast() }) {
            deflater = reused
        } else {
            deflater = try Deflater(level: level, strategy: strategy)
        }
        defer { idle.withLock { $0[strategy, default: []].append(deflater) } }
        return try body(deflater)
    }
}
