/// A destination for a stream of bytes: a file, a compressor, an archive writer or memory.
public protocol ByteSink {
    /// Takes `bytes`, which are valid only during the call.
    mutating func write(_ bytes: UnsafeRawBufferPointer) throws
}

extension ByteSink {
    /// Writes the bytes of an array.
    public mutating func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }
}

/// Bytes collected in memory.
public struct MemorySink: ByteSink {
    /// Everything written so far.
    public var bytes: [UInt8] = []

    public init() {}

    public mutating func write(_ bytes: UnsafeRawBufferPointer) throws {
        self.bytes.append(contentsOf: bytes)
    }
}
