import FileSystemKit

/// Remembers, for a tree, what the paths and listings the store asks about look like in the tree's
/// own terms: each path as the interned ids of its components, each listing sorted by name.
///
/// Paths are resolved again on every call (the entries they cross change all the time while a
/// state is built, recovered and rolled back), but parsing a path and interning its components is
/// done once per path and tree, not once per call. A listing's sorted names are kept by the hash
/// of its set of names. Both stay valid for the tree's lifetime: name ids never change.
struct PathIndex {
    /// A path as a dictionary key, hashed once with `ContentHash` (much faster than hashing the
    /// string with `Hasher` on every lookup), compared as a string.
    struct Key: Hashable {
        let path: String
        let hash: UInt64

        init(_ path: String) {
            self.path = path
            hash = ContentHash.of(path)
        }

        func hash(into hasher: inout Hasher) { hasher.combine(hash) }

        static func == (lhs: Key, rhs: Key) -> Bool { lhs.hash == rhs.hash && lhs.path == rhs.path }
    }

    /// Component ids of each path seen whose every component is an interned name.
    private var components: [Key: [Int32]] = [:]
    /// Each path seen as the target of a change: its parent's component ids and its last name's id.
    private var splits: [Key: (parent: [Int32], name: Int32)] = [:]
    /// The name ids of each listing seen, sorted by name, by `ModelFileSystem.listAnswer`.
    private var listings: [UInt64: [Int32]] = [:]
    /// Entries kept at most in each map (a map starts afresh beyond).
    static let capacity = 65_536

    /// The component ids of `path` (`.` and empty components left out), or nil when some
    /// component is not an interned name (then nothing in the tree has that path).
    mutating func components(of path: String, names: NameTable) -> [Int32]? {
        let key = Key(path)
        if let known = components[key] { return known }
        var copy = path
        let ids = copy.withUTF8 { bytes -> [Int32]? in
            var result: [Int32] = []
            var start = 0
            let count = bytes.count
            while start < count {
                var end = start
                while end < count && bytes[end] != 0x2F { end += 1 }
                let length = end - start
                if length > 0 && !(length == 1 && bytes[start] == 0x2E) {
                    let component = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[start..<end]))
                    guard let name = names.id(ofBytes: component) else { return nil }
                    result.append(name)
                }
                start = end + 1
            }
            return result
        }
        guard let ids else { return nil }
        if components.count >= PathIndex.capacity { components.removeAll(keepingCapacity: true) }
        components[key] = ids
        return ids
    }

    /// The parent's component ids and the last name's id of a path remembered with `remember`.
    func split(of path: String) -> (parent: [Int32], name: Int32)? { splits[Key(path)] }

    /// Remembers how `path` splits into its parent's components and its last name.
    mutating func remember(parent: [Int32], name: Int32, of path: String) {
        if splits.count >= PathIndex.capacity { splits.removeAll(keepingCapacity: true) }
        splits[Key(path)] = (parent, name)
    }

    /// The name ids of a directory's entries, sorted by the UTF-8 bytes of their names; `key`
    /// identifies the set of names (see `ModelTree.listingKey`).
    mutating func sortedNames(_ entries: [Int32: Int32], key: UInt64, names: NameTable) -> [Int32] {
        if let known = listings[key], known.count == entries.count { return known }
        let sorted = sortedByBytes(Array(entries.keys)) { names.name($0) }
        if listings.count >= PathIndex.capacity { listings.removeAll(keepingCapacity: true) }
        listings[key] = sorted
        return sorted
    }
}
