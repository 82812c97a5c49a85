/// A file system tree held in memory: directories of named entries pointing at inodes, and files
/// holding blobs; with an incrementally maintained hash and an undo journal.
///
/// It is the one representation behind the recording file system (the process's view), the
/// durable base of an exploration and every crash state materialised on top of it. A crash state
/// is built by applying a few effects to the base with the journal on, checked, then rolled back:
/// states are materialised incrementally, never rebuilt from zero.
///
/// The hash is the wrapping sum of one term per directory entry reachable from the root
/// (directory inode, name, and the target: a directory's inode or a file's content hash). Each
/// directory keeps the sum of the terms below it, so a change is carried up its ancestors in
/// O(depth) (a content change once per link) and a whole tree leaves the hash, or comes back to
/// it, with the one entry that names it: what is not reachable cannot be seen by any path, so two
/// states that differ only there are the same state.
///
/// Each directory also keeps the content hash of what lies below it (a Merkle hash: names and
/// bytes, no inode numbers), twice: of everything, and leaving out temporary and backup names
/// (see `NameTable.isTransient`). A change only marks the directories above it stale, stopping at
/// the first one already stale (so a thousand changes in one directory cost one walk up); a hash
/// asked for is brought up to date from the stale directories below it alone, so two directories
/// are compared in time proportional to what changed, whatever they hold (see
/// `contentHash(of:leavingOutTransient:)`).
///
/// Used by one thread at a time, and on every file operation of every crash state: its stored
/// properties are marked `@exclusivity(unchecked)`, leaving out the run-time exclusivity checks
/// (the compiler's static ones stay), which cost a tenth of an exploration.
public final class ModelTree {
    /// A directory entry seen from its target: the directory holding it and its name.
    struct Link: Equatable, Sendable {
        var directory: Int32
        var name: Int32
    }

    /// A file or directory.
    public struct Node: Sendable {
        public let isDirectory: Bool
        /// A directory's entries: name id to inode.
        public internal(set) var entries: [Int32: Int32]
        /// A file's content.
        public internal(set) var blob: Blob
        /// Index of the last data operation applied to the file (-1: none).
        var dataOperation: Int32
        /// True when `blob` is the recording's content after `dataOperation` (so the next
        /// operation's recorded result can be reused instead of recomputed).
        var exact: Bool
        /// The entries that point at this node.
        var links: [Link]
        /// False for the slot of an inode that does not exist (see `ModelTree.nodes`).
        var exists = true
        /// A directory's wrapping sum of one term per entry (name and the target's content): of
        /// every entry, and of the entries whose name is not transient; out of date when `isStale`.
        var everything: UInt64 = 0
        var lasting: UInt64 = 0
        /// Whether something below the directory changed since its sums were computed; every
        /// directory above a stale one is stale too.
        var isStale = false
        /// A directory's wrapping sums of the hash terms and of the linkage terms of every entry
        /// below it (its own and those of its subdirectories), always up to date.
        var termsBelow: UInt64 = 0
        var linkageBelow: UInt64 = 0

        /// The slot of an inode that does not exist.
        static let missing = Node(isDirectory: false, entries: [:], blob: .empty, dataOperation: -1, exact: true, links: [], exists: false)
    }

    enum Undo {
        case created(Int32)
        case entry(directory: Int32, name: Int32, previous: Int32)
        case content(inode: Int32, blob: Blob, dataOperation: Int32, exact: Bool)
    }

    /// The inode of the root directory, `/`.
    public static let root: Int32 = 0

    /// Nodes by inode; slots of inodes that do not exist hold `Node.missing` (not optionals, so
    /// that reading a field of a node never copies the node).
    @exclusivity(unchecked)
    private(set) var nodes: [Node]
    /// The hash of the whole tree (see the type's description).
    @exclusivity(unchecked)
    public private(set) var hash: UInt64 = 0
    /// The wrapping sum of one term per reachable directory entry of (directory inode, name, target inode):
    /// which inode each name points at, files included, where `hash` knows files by content only.
    @exclusivity(unchecked)
    private(set) var linkage: UInt64 = 0
    /// The names of every entry, interned.
    @exclusivity(unchecked)
    public var names: NameTable
    /// When true, every change is journaled so that `rollback(to:)` can undo it.
    public var isJournaling = false
    /// Paths and listings in the tree's terms (see `PathIndex`).
    @exclusivity(unchecked)
    var pathIndex = PathIndex()
    @exclusivity(unchecked)
    private var journal: [Undo] = []

    /// A tree holding only the root directory.
    public init(names: NameTable = NameTable()) {
        self.names = names
        nodes = [Node(isDirectory: true, entries: [:], blob: .empty, dataOperation: -1, exact: true, links: [])]
    }

    /// A frozen copy of a tree, shareable between threads.
    public struct Snapshot: Sendable {
        let nodes: [Node]
        let hash: UInt64
        let linkage: UInt64
        public let names: NameTable
    }

    /// The tree as it is now (blobs are shared, nothing is copied deeply).
    public func snapshot() -> Snapshot { Snapshot(nodes: nodes, hash: hash, linkage: linkage, names: names) }

    /// A tree starting from a snapshot, with `names` (a superset of the snapshot's) as its name table.
    public init(snapshot: Snapshot, names: NameTable? = nil) {
        self.names = names ?? snapshot.names
        self.nodes = snapshot.nodes
        self.hash = snapshot.hash
        self.linkage = snapshot.linkage
    }

    // MARK: Reading

    /// The node of an inode, if it exists.
    @inline(__always)
    public func node(_ inode: Int32) -> Node? {
        let index = Int(inode)
        return index < nodes.count && nodes[index].exists ? nodes[index] : nil
    }

    /// The inode an entry of a directory points at.
    @inline(__always)
    public func lookup(_ directory: Int32, _ name: Int32) -> Int32? {
        let index = Int(directory)
        return index < nodes.count ? nodes[index].entries[name] : nil
    }

    /// The entries of an existing directory, without copying its node.
    @inline(__always)
    public func entries(of directory: Int32) -> [Int32: Int32] { nodes[Int(directory)].entries }

    /// Makes room in a directory for `count` entries.
    func reserveEntries(_ directory: Int32, _ count: Int) { nodes[Int(directory)].entries.reserveCapacity(count) }

    /// The inode reached from the root through the entries named `components` (nil: one is
    /// missing), in one pass over the nodes.
    public func walk(_ components: [Int32]) -> Int32? {
        nodes.withUnsafeBufferPointer { buffer in
            var current = ModelTree.root
            for name in components {
                let index = Int(current)
                guard index < buffer.count, let next = buffer[index].entries[name] else { return nil }
                current = next
            }
            return current
        }
    }

    /// Whether an inode is a directory (nil: no such inode), without copying its node.
    @inline(__always)
    public func isDirectory(_ inode: Int32) -> Bool? {
        let index = Int(inode)
        return index < nodes.count && nodes[index].exists ? nodes[index].isDirectory : nil
    }

    /// A file's content (nil: no such inode), without copying its node.
    @inline(__always)
    public func blob(of inode: Int32) -> Blob? {
        let index = Int(inode)
        return index < nodes.count && nodes[index].exists ? nodes[index].blob : nil
    }

    /// A file's content and what produced it, without copying its node.
    @inline(__always)
    func fileState(_ inode: Int32) -> (blob: Blob, dataOperation: Int32, exact: Bool)? {
        let index = Int(inode)
        guard index < nodes.count, nodes[index].exists else { return nil }
        return (nodes[index].blob, nodes[index].dataOperation, nodes[index].exact)
    }

    /// Number of inode slots (the next fresh inode number).
    public var inodeCapacity: Int32 { Int32(nodes.count) }

    // MARK: Journal

    /// A point to roll back to.
    public func mark() -> Int { journal.count }

    /// Undoes every journaled change made after `mark`.
    public func rollback(to mark: Int) {
        let wasJournaling = isJournaling
        isJournaling = false
        while journal.count > mark {
            switch journal.removeLast() {
            case .created(let inode):
                nodes[Int(inode)] = .missing
            case .entry(let directory, let name, let previous):
                setEntry(directory, name, previous < 0 ? nil : previous)
            case .content(let inode, let blob, let dataOperation, let exact):
                setContent(inode, blob, dataOperation: dataOperation, exact: exact)
            }
        }
        isJournaling = wasJournaling
    }

    // MARK: Changing

    /// Makes room for the nodes of inodes below `count`, so that numbering new ones far past
    /// the existing ones (as recovery runs do) does not copy the nodes again and again.
    public func reserveInodes(_ count: Int) { nodes.reserveCapacity(count) }

    /// Creates the node of an inode when it does not exist yet.
    public func ensureNode(_ inode: Int32, directory: Bool) {
        let index = Int(inode)
        if index < nodes.count, nodes[index].exists { return }
        if index >= nodes.count { nodes.append(contentsOf: repeatElement(.missing, count: index + 1 - nodes.count)) }
        nodes[index] = Node(isDirectory: directory, entries: [:], blob: .empty, dataOperation: -1, exact: true, links: [])
        if isJournaling { journal.append(.created(inode)) }
    }

    /// Points an entry at an inode (which must exist), or removes it (nil).
    public func setEntry(_ directory: Int32, _ name: Int32, _ target: Int32?) {
        ensureNode(directory, directory: true)
        let previous = nodes[Int(directory)].entries[name]
        if previous == target { return }
        if isJournaling { journal.append(.entry(directory: directory, name: name, previous: previous ?? -1)) }
        let link = Link(directory: directory, name: name)
        var terms: UInt64 = 0
        var linkTerms: UInt64 = 0
        if let previous {
            terms &-= term(directory, name, previous) &+ nodes[Int(previous)].termsBelow
            linkTerms &-= linkTerm(directory, name, previous) &+ nodes[Int(previous)].linkageBelow
            if let position = nodes[Int(previous)].links.firstIndex(of: link) {
                nodes[Int(previous)].links.remove(at: position)
            }
        }
        nodes[Int(directory)].entries[name] = target
        if let target {
            nodes[Int(target)].links.append(link)
            terms &+= term(directory, name, target) &+ nodes[Int(target)].termsBelow
            linkTerms &+= linkTerm(directory, name, target) &+ nodes[Int(target)].linkageBelow
        }
        carry(terms, linkTerms, from: directory)
        markStale(directory)
    }

    /// Adds to the sums below `directory` and every directory above it, and to the tree's when
    /// the root is reached (a directory without a name is not reachable: the carry stops there).
    private func carry(_ terms: UInt64, _ linkTerms: UInt64, from directory: Int32, depth: Int = 0) {
        var current = Int(directory)
        // A cycle cannot arise from POSIX calls; the bounds only keep a broken tree from hanging
        // or overflowing the stack.
        guard depth < 64 else { return }
        for _ in 0...nodes.count {
            nodes[current].termsBelow &+= terms
            nodes[current].linkageBelow &+= linkTerms
            if current == Int(ModelTree.root) {
                hash &+= terms
                linkage &+= linkTerms
                return
            }
            let count = nodes[current].links.count
            guard count == 1 else {
                // Only a file has several names (and this is a directory); none: not reachable.
                for link in nodes[current].links { carry(terms, linkTerms, from: link.directory, depth: depth + 1) }
                return
            }
            current = Int(nodes[current].links[0].directory)
        }
    }

    /// Replaces a file's content.
    public func setContent(_ inode: Int32, _ blob: Blob, dataOperation: Int32, exact: Bool) {
        let index = Int(inode)
        let oldBlob = nodes[index].blob
        if isJournaling {
            journal.append(.content(inode: inode, blob: oldBlob, dataOperation: nodes[index].dataOperation, exact: nodes[index].exact))
        }
        if oldBlob !== blob {
            nodes[index].blob = blob
            for link in nodes[index].links {
                let entry = entryKey(link.directory, link.name)
                carry(ContentHash.combine(entry, blob.hash) &- ContentHash.combine(entry, oldBlob.hash), 0, from: link.directory)
                markStale(link.directory)
            }
        }
        nodes[index].dataOperation = dataOperation
        nodes[index].exact = exact
    }

    // MARK: Content hashes

    /// The content hash of a file or directory (nil: no such inode): names and bytes below it,
    /// never inode numbers; with `leavingOutTransient`, temporary and backup names (and what lies
    /// below them) left out, as the oracles that compare trees leave them out.
    public func contentHash(of inode: Int32, leavingOutTransient: Bool) -> UInt64? {
        guard node(inode) != nil else { return nil }
        let both = contents(inode)
        return leavingOutTransient ? both.lasting : both.everything
    }

    /// Whether a temporary or backup name lies anywhere below a directory: exactly when its two
    /// content hashes differ.
    func holdsTransientNames(_ directory: Int32) -> Bool {
        refresh(directory)
        return nodes[Int(directory)].everything != nodes[Int(directory)].lasting
    }

    /// The content hash of a directory as if its entry `name` were not there (nil: no such
    /// directory): an entry whose manifest was added compared with what it copied.
    public func contentHash(of directory: Int32, leavingOutTransient: Bool, without name: Int32) -> UInt64? {
        guard isDirectory(directory) == true else { return nil }
        refresh(directory)
        var sum = leavingOutTransient ? nodes[Int(directory)].lasting : nodes[Int(directory)].everything
        if let target = lookup(directory, name), !(leavingOutTransient && names.isTransient(name)) {
            let content = contents(target)
            sum &-= contentTerm(name, leavingOutTransient ? content.lasting : content.everything)
        }
        return ContentHash.combine(sum, ModelTree.directoryTag)
    }

    /// Mixed into the content hash of every directory (files get `fileTag`).
    private static let directoryTag: UInt64 = 0x6469_72
    private static let fileTag: UInt64 = 0x6669_6C65

    /// Both content hashes of an existing inode (a stale directory's brought up to date).
    private func contents(_ inode: Int32) -> (everything: UInt64, lasting: UInt64) {
        let index = Int(inode)
        guard nodes[index].isDirectory else {
            let file = ContentHash.combine(nodes[index].blob.hash, ModelTree.fileTag)
            return (file, file)
        }
        refresh(inode)
        return (
            ContentHash.combine(nodes[index].everything, ModelTree.directoryTag),
            ContentHash.combine(nodes[index].lasting, ModelTree.directoryTag)
        )
    }

    /// The content term of one entry.
    @inline(__always)
    private func contentTerm(_ name: Int32, _ content: UInt64) -> UInt64 {
        ContentHash.combine(names.hash(name), content)
    }

    /// Computes a stale directory's sums again, from its entries (stale ones below first).
    private func refresh(_ directory: Int32) {
        let index = Int(directory)
        guard nodes[index].isStale else { return }
        var everything: UInt64 = 0
        var lasting: UInt64 = 0
        for (name, target) in nodes[index].entries {
            let content = contents(target)
            everything &+= contentTerm(name, content.everything)
            if !names.isTransient(name) { lasting &+= contentTerm(name, content.lasting) }
        }
        nodes[index].everything = everything
        nodes[index].lasting = lasting
        nodes[index].isStale = false
    }

    /// Marks a directory and every directory above it stale, up to the first one already stale.
    private func markStale(_ directory: Int32) {
        var current = Int(directory)
        while !nodes[current].isStale {
            nodes[current].isStale = true
            let count = nodes[current].links.count
            guard count == 1 else {
                // The root has no name; only a file has several (and this is a directory).
                for link in nodes[current].links { markStale(link.directory) }
                return
            }
            current = Int(nodes[current].links[0].directory)
        }
    }

    /// The linkage term of one entry.
    @inline(__always)
    private func linkTerm(_ directory: Int32, _ name: Int32, _ target: Int32) -> UInt64 {
        ContentHash.combine(
            ContentHash.combine(UInt64(UInt32(bitPattern: directory)), names.hash(name)),
            UInt64(UInt32(bitPattern: target)) | 0x6C69_6E6B_0000_0000)
    }

    /// The hash term of one entry.
    @inline(__always)
    private func term(_ directory: Int32, _ name: Int32, _ target: Int32) -> UInt64 {
        let content =
            nodes[Int(target)].isDirectory
            ? ContentHash.combine(UInt64(UInt32(bitPattern: target)), 0x6469_7265_6374_6F72) : nodes[Int(target)].blob.hash
        return ContentHash.combine(entryKey(directory, name), content)
    }

    /// The part of an entry's hash term that names it (its directory and name).
    @inline(__always)
    private func entryKey(_ directory: Int32, _ name: Int32) -> UInt64 {
        ContentHash.combine(UInt64(UInt32(bitPattern: directory)), names.hash(name))
    }
}
