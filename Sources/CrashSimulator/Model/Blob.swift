/// The immutable content of a file in the model file system, with its hash computed once.
///
/// Blobs are shared between the recording and every crash state that holds the same content,
/// so an unchanged file is never copied, re-hashed or re-parsed.
public final class Blob: Sendable {
    public let bytes: [UInt8]
    public let hash: UInt64

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
        self.hash = ContentHash.of(bytes)
    }

    /// The empty file.
    public static let empty = Blob([])

    public var count: Int { bytes.count }

    /// The content after writing `data` at `offset` (zero-filling any gap), as a new blob.
    public func writing(_ data: ArraySlice<UInt8>, at offset: Int) -> Blob {
        var result = bytes
        if offset > result.count { result.append(contentsOf: repeatElement(0, count: offset - result.count)) }
        let end = offset + data.count
        if end > result.count { result.append(contentsOf: repeatElement(0, count: end - result.count)) }
        result.replaceSubrange(offset..<end, with: data)
        return Blob(result)
    }

    /// The content cut or zero-extended to `size` bytes, as a new blob (self when unchanged).
    public func resized(to size: Int) -> Blob {
        if size == bytes.count { return self }
        if size < bytes.count { return Blob(Array(bytes[0..<size])) }
        return Blob(bytes + repeatElement(0, count: size - bytes.count))
    }
}
