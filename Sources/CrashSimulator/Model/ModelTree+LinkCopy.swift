import FileSystemKit

extension ModelTree {
    /// The key of a directory's set of names (any order), by which `PathIndex` keeps its sorted listing.
    func listingKey(_ entries: [Int32: Int32]) -> UInt64 {
        var sum: UInt64 = 0
        for name in entries.keys { sum &+= ContentHash.combine(names.hash(name), 0x6C73) }
        return ContentHash.combine(sum, UInt64(entries.count))
    }

    /// Makes the entry `name` of `directory` a copy of the directory tree at `source` made of hard
    /// links, in one step: temporary and backup names are left out, each new directory gets the
    /// next inode from `firstInode` in the order of a walk of sorted listings (the order in which
    /// `mkdir` after `mkdir` would number them), and files keep their inodes. Returns the next
    /// free inode.
    ///
    /// The copy is put together out of reach and then named, so each change below it is carried
    /// no further than its top (see `carry`) and the whole copy reaches the tree's hash once.
    @discardableResult
    func linkCopy(of source: Int32, into directory: Int32, name: Int32, firstInode: Int32) -> Int32 {
        var unused: [String]?
        return linkCopy(of: source, into: directory, name: name, firstInode: firstInode, linked: &unused)
    }

    /// `linkCopy`, appending to `linked` (when not nil) the path of each file linked relative to
    /// the copy, in walk order.
    func linkCopy(of source: Int32, into directory: Int32, name: Int32, firstInode: Int32, linked: inout [String]?) -> Int32 {
        var next = firstInode
        func copy(_ from: Int32, _ relative: String) -> Int32 {
            let inode = next
            next += 1
            ensureNode(inode, directory: true)
            guard isDirectory(from) == true else { return inode }
            let entries = self.entries(of: from)
            reserveEntries(inode, entries.count)
            for id in pathIndex.sortedNames(entries, key: listingKey(entries), names: names) where !names.isTransient(id) {
                guard let target = entries[id], let isDirectory = isDirectory(target) else { continue }
                if isDirectory {
                    let child = copy(target, linked == nil ? "" : joinPath(relative, names.name(id)))
                    setEntry(inode, id, child)
                } else {
                    setEntry(inode, id, target)
                    linked?.append(joinPath(relative, names.name(id)))
                }
            }
            return inode
        }
        let top = copy(source, "")
        setEntry(directory, name, top)
        return next
    }
}
