import Crypto

/// SHA-256, streaming: `update` any number of times, then `finalize`.
///
/// The digest comes from swift-crypto (`Crypto.SHA256`, BoringSSL on Linux, CryptoKit on Apple
/// systems, both with the processor's SHA instructions where it has them); this type only gives the
/// project's callers byte arrays and lower-case hexadecimal.
public struct SHA256 {
    private var hasher = Crypto.SHA256()

    public init() {}

    /// The digest of some bytes.
    public static func hash(_ bytes: [UInt8]) -> [UInt8] {
        Array(Crypto.SHA256.hash(data: bytes))
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
        hasher.update(data: bytes)
    }

    /// Adds the bytes of a buffer.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        hasher.update(bufferPointer: bytes)
    }

    /// The digest of everything added (the hasher is not to be used afterwards).
    public mutating func finalize() -> [UInt8] {
        Array(hasher.finalize())
    }
}
