/// Deterministic chunk sizes for feeding an input to a streaming reader in pieces: derived from the
/// input itself, so that a crashing input reproduces with the same split.
struct ChunkPlan {
    private var state: UInt64

    init(_ bytes: [UInt8]) {
        var seed: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes.prefix(64) { seed = (seed ^ UInt64(byte)) &* 0x100_0000_01b3 }
        state = seed ^ UInt64(bytes.count)
    }

    /// The next chunk size: mostly tiny (1-16 bytes), sometimes up to a few blocks.
    mutating func next() -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return z % 4 == 0 ? 1 + Int((z >> 8) % 1500) : 1 + Int((z >> 8) % 16)
    }

    /// Calls `body` with consecutive pieces of `bytes` that together cover it.
    static func split(_ bytes: [UInt8], _ body: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        var plan = ChunkPlan(bytes)
        try bytes.withUnsafeBytes { raw in
            var start = 0
            while start < raw.count {
                let end = min(raw.count, start + plan.next())
                try body(UnsafeRawBufferPointer(rebasing: raw[start..<end]))
                start = end
            }
        }
    }
}
