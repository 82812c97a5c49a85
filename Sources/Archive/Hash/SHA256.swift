import CSHA256

/// SHA-256 (FIPS 180-4), streaming: `update` any number of times, then `finalize`.
///
/// A small implementation of our own keeps the build free of a crypto package; it is checked
/// against the NIST test vectors and `sha256sum` in the tests. Where the processor has the x86
/// SHA extensions, the compression function runs on them (CSHA256, several times faster); the
/// tests hold the two to the same digests.
public struct SHA256: Sendable {
    /// Whether the SHA extensions are used on this machine.
    public static let isAccelerated = csha256_accelerated() == 1
    /// Lets the tests run the portable code on a machine that has the extensions.
    private let portable: Bool

    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19
    )
    /// Bytes of an incomplete block, waiting for more input.
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    public init() { portable = false }

    /// A hasher that never uses the SHA extensions (for the tests that compare the two).
    @_spi(Testing) public init(portable: Bool) { self.portable = portable }

    /// The digest of some bytes.
    public static func hash(_ bytes: [UInt8]) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// Lower-case hexadecimal of a digest.
    public static func hex(_ digest: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(digest.count * 2)
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Adds the bytes of an array.
    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// Adds bytes to the message.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        length &+= UInt64(bytes.count)
        var start = 0
        if !pending.isEmpty {
            let take = min(64 - pending.count, bytes.count)
            pending.append(contentsOf: UnsafeRawBufferPointer(start: base, count: take))
            start = take
            guard pending.count == 64 else { return }
            let block = pending
            block.withUnsafeBytes { compress($0.baseAddress!, blocks: 1) }
            pending.removeAll(keepingCapacity: true)
        }
        let whole = (bytes.count - start) / 64
        if whole > 0 { compress(base + start, blocks: whole) }
        start += whole * 64
        if start < bytes.count {
            pending.append(contentsOf: UnsafeRawBufferPointer(start: base + start, count: bytes.count - start))
        }
    }

    /// Pads the message and returns its 32-byte digest.
    public mutating func finalize() -> [UInt8] {
        let bitLength = length &* 8
        var tail = pending
        tail.append(0x80)
        while tail.count % 64 != 56 { tail.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        tail.withUnsafeBytes { compress($0.baseAddress!, blocks: tail.count / 64) }
        pending.removeAll()
        let words = [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7]
        return words.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> UInt32(24 - 8 * $0)) } }
    }

    /// Runs the compression function over whole 64-byte blocks.
    private mutating func compress(_ data: UnsafeRawPointer, blocks: Int) {
        if SHA256.isAccelerated && !portable {
            withUnsafeMutableBytes(of: &state) { words in
                csha256_blocks(words.baseAddress!.assumingMemoryBound(to: UInt32.self), data.assumingMemoryBound(to: UInt8.self), blocks)
            }
            return
        }
        var (h0, h1, h2, h3, h4, h5, h6, h7) = state
        // The round constants, shared with the accelerated code.
        let k: UnsafePointer<UInt32> = csha256_round_constants()
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            for block in 0..<blocks {
                let bytes = data + block * 64
                for i in 0..<16 {
                    w[i] = UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self))
                }
                for i in 16..<64 {
                    let s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)
                    let s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)
                    w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
                }
                var (a, b, c, d, e, f, g, h) = (h0, h1, h2, h3, h4, h5, h6, h7)
                for i in 0..<64 {
                    let s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
                    let choice = (e & f) ^ (~e & g)
                    let t1 = h &+ s1 &+ choice &+ k[i] &+ w[i]
                    let s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
                    let majority = (a & b) ^ (a & c) ^ (b & c)
                    let t2 = s0 &+ majority
                    h = g; g = f; f = e; e = d &+ t1
                    d = c; c = b; b = a; a = t1 &+ t2
                }
                h0 &+= a; h1 &+= b; h2 &+= c; h3 &+= d
                h4 &+= e; h5 &+= f; h6 &+= g; h7 &+= h
            }
        }
        state = (h0, h1, h2, h3, h4, h5, h6, h7)
    }
}

/// Rotates right.
@inline(__always) private func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 &- n)) }
