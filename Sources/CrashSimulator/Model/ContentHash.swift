/// A fast, deterministic 64-bit hash for file contents, names and trees.
///
/// Not cryptographic: it identifies states of one exploration, where a collision would merge two
/// states (the chance is about n²/2⁶⁵ for n distinct contents). Deterministic across runs and
/// processes, unlike `Hasher`, so shards and replays see the same values.
public enum ContentHash {
    /// Hashes bytes eight at a time with a folded 128-bit multiply.
    public static func of(_ bytes: [UInt8], seed: UInt64 = 0) -> UInt64 {
        bytes.withUnsafeBytes { of($0, seed: seed) }
    }

    /// Hashes raw bytes.
    public static func of(_ raw: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        var state = seed ^ 0x9E37_79B9_7F4A_7C15 ^ (UInt64(raw.count) &* 0xA076_1D64_78BD_642F)
        var index = 0
        let count = raw.count
        while index + 16 <= count {
            let first = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            let second = raw.loadUnaligned(fromByteOffset: index + 8, as: UInt64.self)
            state = fold(state ^ first ^ 0xE703_7ED1_A0B4_28DB, second ^ 0x8EBC_6AF0_9C88_C6E3)
            index += 16
        }
        if index + 8 <= count {
            state = fold(state ^ raw.loadUnaligned(fromByteOffset: index, as: UInt64.self), 0x5899_65CC_7537_4CC3)
            index += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while index < count {
            tail |= UInt64(raw[index]) << shift
            shift += 8
            index += 1
        }
        return finish(fold(state ^ tail, 0x1D8E_4E27_C47D_124F))
    }

    /// Hashes the UTF-8 bytes of a string.
    public static func of(_ text: String, seed: UInt64 = 0) -> UInt64 {
        var copy = text
        return copy.withUTF8 { of(UnsafeRawBufferPointer($0), seed: seed) }
    }

    /// Mixes two values into one (order matters).
    @inline(__always)
    public static func combine(_ first: UInt64, _ second: UInt64) -> UInt64 {
        finish(fold(first ^ 0x2D35_8DCC_AA6C_78A5, second ^ 0x8BB8_4B93_962E_ACC9))
    }

    @inline(__always)
    static func fold(_ lhs: UInt64, _ rhs: UInt64) -> UInt64 {
        let product = lhs.multipliedFullWidth(by: rhs)
        return product.high ^ product.low
    }

    @inline(__always)
    static func finish(_ value: UInt64) -> UInt64 {
        var x = value
        x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
        x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
        return x ^ (x >> 31)
    }
}

/// A small deterministic pseudo-random generator (SplitMix64) for seeded sampling and garbage bytes.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return ContentHash.finish(state)
    }

    /// `count` bytes of deterministic garbage for a seed and a purpose.
    public static func garbage(count: Int, seed: UInt64) -> [UInt8] {
        var generator = SeededGenerator(seed: seed)
        var bytes = [UInt8]()
        bytes.reserveCapacity(count + 8)
        while bytes.count < count {
            let word = generator.next()
            for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
        }
        bytes.removeLast(bytes.count - count)
        return bytes
    }
}
