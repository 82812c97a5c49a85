import CLZ4

/// Mozilla's LZ4 container (`mozLz40\0`, the decompressed size as 4 little-endian bytes, then one
/// LZ4 block), which Firefox writes its session store in (`sessionstore.jsonlz4`,
/// `recovery.baklz4`, ...). Both ways go through the system's liblz4.
public enum MozLz4 {
    /// The magic the container starts with.
    public static let magic: [UInt8] = Array("mozLz40\0".utf8)
    /// The bytes before the LZ4 block: the magic and the size.
    public static let headerSize = 12
    /// The largest block liblz4 takes or gives (`LZ4_MAX_INPUT_SIZE`, just under 2 GiB).
    public static let largestBlock = 0x7E00_0000

    /// What a container decodes to: every byte that decodes, and where decoding stopped when the
    /// block is damaged or cut short.
    public struct Decoded: Sendable, Equatable {
        /// The decompressed bytes: all of them, or those before the damage.
        public var bytes: [UInt8]
        /// The size the header gives.
        public var declaredSize: Int
        /// Why the block did not decode whole, where in the file liblz4 stopped reading, and
        /// (`bytes.count`) how far into the decompressed data it got; nil when it decoded whole.
        public var damage: Damage?
        /// Whether liblz4 decoded the whole block into at most the header's size: what Firefox
        /// requires of a file it loads (it takes a block that holds fewer bytes than the header
        /// gives, and refuses one that holds more or does not decode).
        public var decodesInFirefox = false

        /// Damage met while decoding.
        public struct Damage: Sendable, Equatable {
            /// The byte of the file where decoding stopped: where liblz4 found the block could not
            /// go on (past the token, length or offset it could not use), or the header's size
            /// (byte 8) when the block holds another size than it gives.
            public var fileOffset: Int
            public var reason: String
        }
    }

    /// The size the header of a container gives (its bytes 8 to 11, little-endian); 0 when cut before them.
    public static func declaredSize(_ bytes: some Collection<UInt8>) -> Int {
        guard bytes.count >= headerSize else { return 0 }
        return bytes.dropFirst(8).prefix(4).reversed().reduce(0) { $0 << 8 | Int($1) }
    }

    /// Whether `bytes` start with the container's magic.
    public static func isContainer(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.count >= magic.count && bytes.prefix(magic.count).elementsEqual(magic)
    }

    /// Decodes a container, keeping every byte that decodes: a block cut short or damaged gives
    /// the longest decoded prefix liblz4's partial decoding reaches, with the damage reported; a
    /// header that gives another size than the block holds is damage too. `limit` bounds what is
    /// decoded (memory stays within it): a block that holds more is `tooLarge`, whatever its header
    /// gives, and one that holds less is read though its header gives more, as Firefox reads it.
    public static func decode(_ bytes: [UInt8], file: String, limit: Int) throws(ArchiveError) -> Decoded {
        guard isContainer(bytes) else {
            throw .notAnArchive(file: file, reason: "not a mozLz4 file (it does not start with mozLz40)")
        }
        guard bytes.count >= headerSize else {
            throw .damaged(file: file, offset: Int64(bytes.count), reason: "cut short inside the mozLz4 header")
        }
        let declared = declaredSize(bytes)
        let blockSize = bytes.count - headerSize
        guard blockSize <= largestBlock else { throw .tooLarge(file: file, limit: Int64(largestBlock)) }
        // Firefox (IOUtils::MozLZ4::Decompress) decodes into a buffer of the header's size and takes
        // what the block holds within it. No LZ4 block expands more than 255 times (plus its last
        // literals): memory is sized by what the block can hold, not by what a lying header says.
        let possible = min(declared, largestBlock, blockSize * 255 + 16)
        let capacity = min(possible, max(0, limit))
        // One byte more: a block that holds more than its header says is told apart.
        var output = [UInt8](repeating: 0, count: capacity + 1)
        // More than the limit may decode: a block that holds more is refused for its size, not
        // read as damage (liblz4 stops once it has the bytes asked for).
        if possible > capacity, decompress(bytes, into: &output, target: capacity + 1) > capacity {
            throw .tooLarge(file: file, limit: Int64(capacity))
        }
        let result = decompress(bytes, into: &output, target: nil)
        if result >= 0 {
            output.removeLast(output.count - result)
            if result == declared { return Decoded(bytes: output, declaredSize: declared, damage: nil, decodesInFirefox: true) }
            let reason =
                result < declared
                ? "the header gives \(declared) bytes, the block holds \(result)"
                : "the block holds more than the \(declared) bytes the header gives"
            if result > declared { output.removeLast(output.count - declared) }
            return Decoded(
                bytes: output, declaredSize: declared, damage: .init(fileOffset: magic.count, reason: reason),
                decodesInFirefox: result < declared)
        }
        // liblz4 names where in the block it could not go on, whether the block is cut short there
        // or damaged: LZ4 has no checksum to tell them apart.
        let stopped = headerSize + Int(-(result + 1))
        let reason = "the LZ4 block does not decode past here (cut short or damaged)"
        // The longest prefix that decodes: partial decoding stops once it has its target, so a
        // target before the damage succeeds and one past it fails.
        var good = 0
        var bad = capacity + 1
        while bad - good > 1 {
            let middle = good + (bad - good) / 2
            if decompress(bytes, into: &output, target: middle) >= middle { good = middle } else { bad = middle }
        }
        let decoded = good > 0 ? decompress(bytes, into: &output, target: good) : 0
        output.removeLast(output.count - max(0, min(decoded, good)))
        // Every declared byte decodes and only the rest fails: the block holds more than the header gives.
        if good == declared {
            return Decoded(
                bytes: output, declaredSize: declared,
                damage: .init(fileOffset: magic.count, reason: "the block holds more than the \(declared) bytes the header gives"))
        }
        return Decoded(bytes: output, declaredSize: declared, damage: .init(fileOffset: min(stopped, bytes.count), reason: reason))
    }

    /// Runs liblz4 on the block of `bytes` into `output`: whole (`target` nil) or until `target`
    /// bytes are out. Returns what liblz4 returns (bytes written, or minus one less the block
    /// offset where it stopped).
    private static func decompress(_ bytes: [UInt8], into output: inout [UInt8], target: Int?) -> Int {
        let capacity = output.count
        return bytes.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { destination in
                guard let start = source.baseAddress, let outStart = destination.baseAddress, source.count >= headerSize else { return -1 }
                let block = UnsafeRawPointer(start + headerSize).assumingMemoryBound(to: CChar.self)
                let out = UnsafeMutableRawPointer(outStart).assumingMemoryBound(to: CChar.self)
                let size = Int32(source.count - headerSize)
                if let target {
                    return Int(LZ4_decompress_safe_partial(block, out, size, Int32(target), Int32(capacity)))
                }
                return Int(LZ4_decompress_safe(block, out, size, Int32(capacity)))
            }
        }
    }

    /// A container of `bytes`, compressed by liblz4 as Firefox's `IOUtils.writeJSON` with
    /// `compress: true` writes it.
    public static func encode(_ bytes: [UInt8], file: String) throws(ArchiveError) -> [UInt8] {
        guard bytes.count <= largestBlock else { throw .tooLarge(file: file, limit: Int64(largestBlock)) }
        let bound = Int(LZ4_compressBound(Int32(bytes.count)))
        var output = magic + withUnsafeBytes(of: UInt32(bytes.count).littleEndian, Array.init)
        output += [UInt8](repeating: 0, count: bound)
        // An empty input is still given a buffer: liblz4 writes one token for it.
        let input = bytes.isEmpty ? [0] : bytes
        let written = input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { destination -> Int32 in
                guard let start = source.baseAddress, let outStart = destination.baseAddress else { return 0 }
                return LZ4_compress_default(
                    UnsafeRawPointer(start).assumingMemoryBound(to: CChar.self),
                    UnsafeMutableRawPointer(outStart + headerSize).assumingMemoryBound(to: CChar.self),
                    Int32(bytes.count), Int32(bound))
            }
        }
        guard written > 0 else { throw .damaged(file: file, offset: 0, reason: "liblz4 could not compress the data") }
        output.removeLast(bound - Int(written))
        return output
    }
}
