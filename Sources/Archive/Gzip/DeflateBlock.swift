import CZlib

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
    /// How the block ends.
    var ending: Ending

    /// Deflate's window: the most input before a block that a match can reach.
    static let windowSize = 1 << 15

    /// The raw deflate bytes of the block, made with `deflater` (of the level and strategy wanted;
    /// reset first, so that nothing of its previous block remains).
    func compressed(with deflater: Deflater) throws(ArchiveError) -> [UInt8] {
        let stream = deflater.stream
        var status = deflateReset(stream)
        guard status == Z_OK else { throw .zlib(code: status, reason: "deflateReset failed") }
        if !dictionary.isEmpty {
            status = dictionary.withUnsafeBufferPointer { deflateSetDictionary(stream, $0.baseAddress, uInt($0.count)) }
            guard status == Z_OK else { throw .zlib(code: status, reason: "deflateSetDictionary failed") }
        }
        // deflateBound covers the worst case of the data; a flush adds at most 10 bytes more.
        let capacity = Int(deflateBound(stream, uLong(input.count))) + 16
        let flush =
            switch ending {
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
