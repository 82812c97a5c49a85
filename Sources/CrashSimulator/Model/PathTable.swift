/// A map from paths to values, found by each path's `ContentHash` in an open-addressed table
/// (linear probing) rather than through `Hasher`: the hash is computed once per lookup and
/// already well mixed, so a lookup costs that hash, a probe or two and one string comparison.
struct PathTable<Value> {
    /// The hash of each slot's path (`empty` for a free slot; a path hashing to it is stored as 1).
    private var hashes: [UInt64]
    /// Each slot's path ("" when free).
    private var paths: [String]
    /// Each slot's value (nil when free).
    private var values: [Value?]
    /// Paths held.
    private(set) var count = 0
    private static var empty: UInt64 { 0 }

    /// A table with room for `capacity` paths before it grows (rounded up to a power of two, doubled).
    init(capacity: Int = 512) {
        var size = 16
        while size < capacity * 2 { size *= 2 }
        hashes = Array(repeating: PathTable.empty, count: size)
        paths = Array(repeating: "", count: size)
        values = Array(repeating: nil, count: size)
    }

    /// The hash a path is filed under.
    static func hash(_ path: String) -> UInt64 {
        let hash = ContentHash.of(path)
        return hash == empty ? 1 : hash
    }

    /// The slot holding `path` (of hash `hash`), or the free slot where it would go.
    private func slot(_ path: String, _ hash: UInt64) -> Int {
        let mask = hashes.count - 1
        var index = Int(truncatingIfNeeded: hash) & mask
        while hashes[index] != PathTable.empty {
            if hashes[index] == hash && paths[index] == path { return index }
            index = (index + 1) & mask
        }
        return index
    }

    /// The value of `path` (whose `hash(_:)` is `hash`), or nil.
    func value(of path: String, hash: UInt64) -> Value? {
        values[slot(path, hash)]
    }

    /// Files `value` under `path` (whose `hash(_:)` is `hash`), replacing any value it had.
    mutating func set(_ value: Value, for path: String, hash: UInt64) {
        var index = slot(path, hash)
        if hashes[index] == PathTable.empty {
            if (count + 1) * 2 > hashes.count {
                grow()
                index = slot(path, hash)
            }
            hashes[index] = hash
            paths[index] = path
            count += 1
        }
        values[index] = value
    }

    /// Forgets every path, keeping the table's size.
    mutating func removeAll() {
        for index in hashes.indices { hashes[index] = PathTable.empty }
        for index in paths.indices { paths[index] = "" }
        for index in values.indices { values[index] = nil }
        count = 0
    }

    private mutating func grow() {
        var larger = PathTable(capacity: hashes.count)
        for index in hashes.indices where hashes[index] != PathTable.empty {
            if let value = values[index] { larger.set(value, for: paths[index], hash: hashes[index]) }
        }
        self = larger
    }
}
