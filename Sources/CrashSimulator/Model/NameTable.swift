/// Interned file names: each distinct name gets a small integer id and a precomputed hash.
///
/// The model tree keys directory entries by these ids, so path lookups and tree hashing never
/// hash strings again. A value type: each exploration worker extends its own copy.
public struct NameTable: Sendable {
    public private(set) var names: [String] = []
    public private(set) var hashes: [UInt64] = []
    private var ids: [String: Int32] = [:]

    public init() {}

    /// The id of a name, adding it when new.
    public mutating func intern(_ name: String) -> Int32 {
        if let id = ids[name] { return id }
        let id = Int32(names.count)
        names.append(name)
        hashes.append(ContentHash.of(name, seed: 0x6E61_6D65))
        ids[name] = id
        return id
    }

    /// The id of a name already interned, or nil.
    public func id(of name: String) -> Int32? { ids[name] }

    /// The name of an id.
    public func name(_ id: Int32) -> String { names[Int(id)] }

    /// The hash of an id's name.
    @inline(__always)
    public func hash(_ id: Int32) -> UInt64 { hashes[Int(id)] }
}
