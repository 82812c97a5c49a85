import Archive

/// Mozilla's mozLz4 container on liblz4: whatever the bytes, decoding stays within the size the
/// header declares (and the limit), a whole decode re-encodes to what decodes the same, a damaged
/// one gives a prefix of the data its encoding would give, and any bytes round-trip.
enum MozLz4Fuzz {
    /// The most decompressed bytes a fuzz input may declare.
    static let limit = 1 << 22

    @Sendable static func run(_ bytes: [UInt8]) {
        // Any bytes, compressed and decompressed again, come back the same.
        guard let encoded = try? MozLz4.encode(bytes, file: "f"), let back = try? MozLz4.decode(encoded, file: "f", limit: limit),
            back.bytes == bytes, back.damage == nil
        else { fatalError("bytes did not survive mozLz4") }
        // The input itself as a container (with the magic, when it lacks it).
        let file = MozLz4.isContainer(bytes) ? bytes : MozLz4.magic + bytes
        guard let decoded = try? MozLz4.decode(file, file: "f", limit: limit) else { return }
        if decoded.bytes.count > min(decoded.declaredSize, limit) { fatalError("more out than declared or allowed") }
        // A header that gives more than the block holds reads the same bytes as one that gives the truth.
        if decoded.damage == nil || decoded.bytes.count < decoded.declaredSize, file.count >= MozLz4.headerSize {
            var truthful = file
            for index in 0..<4 { truthful[8 + index] = UInt8(truncatingIfNeeded: decoded.bytes.count >> (8 * index)) }
            if let exact = try? MozLz4.decode(truthful, file: "f", limit: limit), exact.damage == nil, exact.bytes != decoded.bytes {
                fatalError("a lying header changed what decodes")
            }
        }
        if let damage = decoded.damage, damage.fileOffset < 0 || damage.fileOffset > file.count { fatalError("damage outside the file") }
        if decoded.damage == nil {
            guard let again = try? MozLz4.encode(decoded.bytes, file: "f"),
                (try? MozLz4.decode(again, file: "f", limit: limit))?.bytes == decoded.bytes
            else { fatalError("a decoded container does not re-encode") }
        }
    }
}
