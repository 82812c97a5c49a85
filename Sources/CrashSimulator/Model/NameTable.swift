import SessionStore

/// Interned file names: each distinct name gets a small integer id and a precomputed hash.
///
/// The model tree keys directory entries by these ids, so path lookups and tree hashing never
/// hash strings again. A value type: each exploration worker extends its own copy.
public struct NameTable: Sendable {
    public private(set) var names: [String] = []
    public private(set) var hashes: [UInt64] = []
    /// Whether each name is a temporary or backup name (`AtomicWriter`'s), which the oracles
    /// comparing trees leave out.
    private var transient: [Bool] = []
    /// Ids by name hash (a list when two names share a hash).
    private var ids: [UInt64: [Int32]] = [:]

    /// Seed of name hashes.
    static let seed: UInt64 = 0x6E61_6D65

    public init() {}

    /// The id of a name, adding it when new.
    public mutating func intern(_ name: String) -> Int32 {
        if let id = id(of: name) { return id }
        let id = Int32(names.count)
        let hash = ContentHash.of(name, seed: NameTable.seed)
        names.append(name)
        hashes.append(hash)
        transient.append(AtomicWriter.isTemporaryName(name) || AtomicWriter.isBackupName(name))
        ids[hash, default: []].append(id)
        return id
    }

    /// The id of a name already interned, or nil.
    public func id(of name: String) -> Int32? {
        var copy = name
        return copy.withUTF8 { id(ofBytes: UnsafeRawBufferPointer($0)) }
    }

    /// The id of a name given as UTF-8 bytes, or nil.
    public func id(ofBytes bytes: UnsafeRawBufferPointer) -> Int32? {
        guard let candidates = ids[ContentHash.of(bytes, seed: NameTable.seed)] else { return nil }
        for id in candidates {
            var name = names[Int(id)]
            let same = name.withUTF8 { stored in
                stored.count == bytes.count && memcmpEqual(stored.baseAddress, bytes.baseAddress, bytes.count)
            }
            if same { return id }
        }
        return nil
    }

    /// The name of an id.
    public func name(_ id: Int32) -> String { names[Int(id)] }

    /// Whether an id's name is a temporary or backup name.
    @inline(__always)
    public func isTransient(_ id: Int32) -> Bool { transient[Int(id)] }

    /// The hash of an id's name.
    @inline(__always)
    public func hash(_ id: Int32) -> UInt64 { hashes[Int(id)] }
}

@inline(__always)
private func memcmpEqual(_ lhs: UnsafePointer<UInt8>?, _ rhs: UnsafeRawPointer?, _ count: Int) -> Bool {
    guard count > 0 else { return true }
    guard let lhs, let rhs else { return false }
    let right = rhs.assumingMemoryBound(to: UInt8.self)
    for index in 0..<count where lhs[index] != right[index] { return false }
    return true
}
