import FileSystemKit

/// Remembers, for a tree, what the paths and listings the store asks about look like in the tree's
/// own terms: each path as the interned ids of its components, each listing sorted by name.
///
/// Paths are resolved again on every call (the entries they cross change all the time while a
/// state is built, recovered and rolled back), but parsing a path and interning its components is
/// done once per path and tree, not once per call. A listing's sorted names are kept by the hash
/// of its set of names. Both stay valid for the tree's lifetime: name ids never change.
struct PathIndex {
    /// Component ids of each path seen whose every component is an interned name.
    private var components = PathTable<[Int32]>()
    /// Each path seen as the target of a change: its parent's component ids and its last name's id.
    private var splits = PathTable<(parent: [Int32], name: Int32)>()
    /// The name ids of each listing seen, sorted by name, by `ModelFileSystem.listAnswer`.
    private var listings: [UInt64: [Int32]] = [:]
    /// Entries kept at most in each map (a map starts afresh beyond).
    static let capacity = 65_536

    /// The hash a path is filed under in the tables.
    private static func hash(_ path: String) -> UInt64 { PathTable<[Int32]>.hash(path) }

    /// The component ids of `path` (`.` and empty components left out), or nil when some
    /// component is not an interned name (then nothing in the tree has that path).
    mutating func components(of path: String, names: NameTable) -> [Int32]? {
        let hash = PathIndex.hash(path)
        if let known = components.value(of: path, hash: hash) { return known }
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
        if components.count >= PathIndex.capacity { components.removeAll() }
        components.set(ids, for: path, hash: hash)
        return ids
    }

    /// The parent's component ids and the last name's id of a path remembered with `remember`.
    func split(of path: String) -> (parent: [Int32], name: Int32)? { splits.value(of: path, hash: PathIndex.hash(path)) }

    /// Remembers how `path` splits into its parent's components and its last name.
    mutating func remember(parent: [Int32], name: Int32, of path: String) {
        if splits.count >= PathIndex.capacity { splits.removeAll() }
        splits.set((parent, name), for: path, hash: PathIndex.hash(path))
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
