import CLZ4

/// Apple's `COMPRESSION_LZ4` stream, which Safari for iOS stores a tab's session state in when
/// the state is 1 MiB or more: blocks, each a 4-byte magic then little-endian sizes, ending with
/// `bv4$`. A `bv41` block is `bv41`, the decoded size (4 bytes), the encoded size (4 bytes) and
/// one raw LZ4 block (which liblz4's block API decodes); a `bv4-` block is `bv4-`, the size (4
/// bytes) and that many bytes stored as they are. A block may refer back into the output before
/// it (up to LZ4's 64 KiB window), as liblz4 decodes with a dictionary.
public enum AppleLZ4 {
    /// The magics of the stream's blocks.
    public static let compressedMagic: [UInt8] = Array("bv41".utf8)
    public static let storedMagic: [UInt8] = Array("bv4-".utf8)
    public static let endMagic: [UInt8] = Array("bv4$".utf8)

    /// Why a stream did not decode, and where in it.
    public struct Damage: Error, Sendable, Equatable {
        public var offset: Int
        public var reason: String
    }

    /// Whether `bytes` start as a stream does (a compressed, stored or end block).
    public static func isStream(_ bytes: some Collection<UInt8>) -> Bool {
        let head = Array(bytes.prefix(4))
        return head == compressedMagic || head == storedMagic || head == endMagic
    }

    /// Decodes a whole stream, up to `limit` decoded bytes (a block that would take the total past
    /// it is damage: memory stays bounded whatever the sizes a stream gives). A stream without its
    /// end block is damage too, after the blocks before it decoded. The blocks' headers are read
    /// first, and the output made once at its size, each block decoded straight into it.
    public static func decode(_ bytes: [UInt8], limit: Int) throws(Damage) -> [UInt8] {
        let (blocks, ending) = self.blocks(bytes, limit: limit)
        let total = blocks.reduce(0) { $0 + $1.decodedSize }
        var failure: Damage?
        let output = [UInt8](unsafeUninitializedCapacity: max(total, 1)) { target, count in
            count = 0
            guard let base = target.baseAddress else { return }
            bytes.withUnsafeBufferPointer { source in
                guard let from = source.baseAddress else { return }
                for block in blocks {
                    let start = count
                    guard block.compressed else {
                        (base + start).initialize(from: from + block.offset, count: block.decodedSize)
                        count += block.decodedSize
                        continue
                    }
                    // The output before the block, up to the window, is its dictionary.
                    let window = min(start, 1 << 16)
                    let written = LZ4_decompress_safe_usingDict(
                        UnsafeRawPointer(from + block.offset).assumingMemoryBound(to: CChar.self),
                        UnsafeMutableRawPointer(base + start).assumingMemoryBound(to: CChar.self),
                        Int32(block.encodedSize), Int32(block.decodedSize),
                        UnsafeRawPointer(base + start - window).assumingMemoryBound(to: CChar.self), Int32(window))
                    guard written == Int32(block.decodedSize) else {
                        failure = Damage(
                            offset: block.offset,
                            reason: written < 0
                                ? "the LZ4 block does not decode"
                                : "the LZ4 block holds \(written) bytes, not the \(block.decodedSize) its header gives")
                        // What LZ4 wrote is bytes all the same; the output ends before it.
                        return
                    }
                    count += block.decodedSize
                }
            }
        }
        if let failure { throw failure }
        if let ending { throw ending }
        return output
    }

    /// One block of a stream: where its data starts, its sizes, and whether it is LZ4-compressed.
    private struct Block {
        var offset: Int
        var decodedSize: Int
        var encodedSize: Int
        var compressed: Bool
    }

    /// The blocks of `bytes` whose headers are whole and within `limit`, in order, and the damage
    /// that ends them early (nil when the end block ends them).
    private static func blocks(_ bytes: [UInt8], limit: Int) -> ([Block], Damage?) {
        var blocks: [Block] = []
        var offset = 0
        var total = 0
        func word(at position: Int) -> Int {
            bytes[position..<position + 4].reversed().reduce(0) { $0 << 8 | Int($1) }
        }
        while true {
            guard offset + 4 <= bytes.count else {
                return (blocks, Damage(offset: offset, reason: "the LZ4 stream ends without its end block (bv4$)"))
            }
            let magic = bytes[offset..<offset + 4]
            if magic.elementsEqual(endMagic) { return (blocks, nil) }
            if magic.elementsEqual(storedMagic) {
                guard offset + 8 <= bytes.count else {
                    return (blocks, Damage(offset: offset, reason: "a stored block cut short in its header"))
                }
                let size = word(at: offset + 4)
                guard size <= limit - total else {
                    return (blocks, Damage(offset: offset + 4, reason: "a stored block of \(size) bytes, past the limit of \(limit)"))
                }
                guard offset + 8 + size <= bytes.count else {
                    return (blocks, Damage(offset: offset + 8, reason: "a stored block of \(size) bytes cut short"))
                }
                blocks.append(Block(offset: offset + 8, decodedSize: size, encodedSize: size, compressed: false))
                total += size
                offset += 8 + size
                continue
            }
            guard magic.elementsEqual(compressedMagic) else {
                return (blocks, Damage(offset: offset, reason: "no LZ4 block starts here (bv41, bv4- or bv4$)"))
            }
            guard offset + 12 <= bytes.count else {
                return (blocks, Damage(offset: offset, reason: "a compressed block cut short in its header"))
            }
            let decodedSize = word(at: offset + 4)
            let encodedSize = word(at: offset + 8)
            guard decodedSize <= limit - total, decodedSize <= Int(LZ4_MAX_INPUT_SIZE) else {
                return (
                    blocks, Damage(offset: offset + 4, reason: "a compressed block of \(decodedSize) bytes, past the limit of \(limit)")
                )
            }
            guard offset + 12 + encodedSize <= bytes.count, encodedSize <= Int(LZ4_MAX_INPUT_SIZE) else {
                return (blocks, Damage(offset: offset + 8, reason: "a compressed block of \(encodedSize) bytes cut short"))
            }
            blocks.append(Block(offset: offset + 12, decodedSize: decodedSize, encodedSize: encodedSize, compressed: true))
            total += decodedSize
            offset += 12 + encodedSize
        }
    }

    /// `bytes` as a stream of one compressed block and the end block (what Safari writes for a
    /// state of 1 MiB or more); a block that does not compress is stored.
    public static func encode(_ bytes: [UInt8]) -> [UInt8] {
        let bound = Int(LZ4_compressBound(Int32(clamping: bytes.count)))
        var block = [UInt8](repeating: 0, count: max(bound, 1))
        let capacity = Int32(clamping: block.count)
        let size = bytes.withUnsafeBufferPointer { source in
            block.withUnsafeMutableBufferPointer { target in
                LZ4_compress_default(
                    source.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) },
                    target.baseAddress.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: CChar.self) },
                    Int32(clamping: bytes.count), capacity)
            }
        }
        func le(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        guard size > 0, Int(size) < bytes.count else { return storedMagic + le(bytes.count) + bytes + endMagic }
        return compressedMagic + le(bytes.count) + le(Int(size)) + block[0..<Int(size)] + endMagic
    }
}
