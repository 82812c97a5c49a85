import SessionStore

#if canImport(Glibc)
    @_spi(CrashTesting) import FileSystemKit
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The simulator's `FileSystem`: POSIX semantics on a `ModelTree` in memory, recording every
/// logical operation with its effect, the workload's context and its call site.
///
/// While a workload runs, the tree is the process's view (every call applied at once) and the
/// recorded operations are what the persistence models later split, drop, reorder and tear.
/// While a crash state is checked, the same type runs the store's recovery on the materialised
/// tree, journaled so the state can be rolled back, recording recovery's own operations so that
/// a crash during recovery can be explored too.
///
/// Confined to one thread at a time (the store is driven synchronously on a virtual clock);
/// `@unchecked Sendable` because the `FileSystem` interface requires `Sendable`. For the same
/// reason its busiest properties skip the run-time exclusivity checks (see `ModelTree`).
public final class ModelFileSystem: FileSystem, @unchecked Sendable {
    private struct OpenFile {
        var inode: Int32
        var position: Int
        var path: String
    }

    /// The tree operated on.
    public let tree: ModelTree
    /// The operations recorded so far.
    @exclusivity(unchecked)
    public private(set) var operations: [FileOperation] = []
    /// What the workload is doing, attached to each operation recorded.
    public var context = ""
    /// Whether call sites are captured (a few microseconds per operation).
    public var capturesCallSites: Bool
    /// Index of the first recorded operation in the numbering of data operations (see `Effect.write`).
    private let operationBase: Int32
    /// When true, writes name the inode's previous data operation so replays can reuse results.
    private let tracksExactContent: Bool
    @exclusivity(unchecked)
    private var files: [Int32: OpenFile] = [:]
    private var nextHandle: Int32 = 3
    /// The inode number the next new file or directory gets.
    var nextInode: Int32
    /// Called before each operation is carried out, with its index: may throw to simulate a
    /// failing call.
    public var beforeOperation: ((Int) throws(FileSystemError) -> Void)?
    /// Whether a tree removed without syncs (`removeTree`), or copied with hard links
    /// (`linkTree`), goes in one step: for runs whose steps are not crashed between, where only
    /// the tree they leave (and their shape, see `shapesOfRemoval` and `shapesOfLinking`) matters.
    var collapsesTrees = false
    /// When set, told of each tree removed at once (its path in the tree and inode) before it
    /// goes; what it returns is kept in `collapsedTerms` (see `StateJudge`).
    var shapesOfRemoval: ((_ path: String, _ inode: Int32) -> RecoverySignature.Collapsed)?
    /// When set, told of each tree copied at once (the source's path in the tree and inode, the
    /// copy's path, and whether each directory was to be fsynced); what it returns is kept in
    /// `collapsedTerms`.
    var shapesOfLinking: ((_ source: String, _ inode: Int32, _ destination: String, _ syncing: Bool) -> RecoverySignature.Collapsed)?
    /// The terms `shapesOfRemoval` and `shapesOfLinking` returned, tree after tree (a resumed
    /// run's tail adds its own), and the number of steps they stood for.
    var collapsedTerms: [UInt64] = []
    var collapsedSteps = 0
    /// Trees removed or copied at once so far.
    private(set) var treesCollapsed = 0
    /// Whether `directories(below:holdingNamesStartingWith:)` answers from the content hashes for
    /// the names the tree tracks (the shortcut); false walks every directory for every question,
    /// as a real file system is walked (what a run without shortcuts compares it against).
    var answersHintsByHash = true
    /// Temporary file names as the store chose them, mapped to the names given in the tree.
    @exclusivity(unchecked)
    var aliases: [String: String] = [:]
    /// Staged directories' paths as the store chose them, with the paths given in the tree: a
    /// path below one is translated too.
    var directoryAliases: [(store: String, model: String)] = []
    var temporaryCount = 0
    let temporaryTag: String

    /// A file system on `tree`; new inodes are numbered from `firstInode` (default: after the
    /// tree's highest), operations from `operationBase`.
    ///
    /// Temporary files (names starting with `AtomicWriter.temporaryPrefix`) are given names that
    /// depend only on this file system's history (`<prefix><target>.<tag><n>`, and
    /// `<prefix><target>.<tag>d<n>` for a staged directory), not on the process id and counter the
    /// store puts in them, so that recordings and crash states are the same in every run; the
    /// store keeps using the names it chose (see `ModelFileSystem+TemporaryNames.swift`).
    public init(
        tree: ModelTree, firstInode: Int32? = nil, operationBase: Int32 = 0,
        tracksExactContent: Bool = true, capturesCallSites: Bool = false, temporaryTag: String = ""
    ) {
        self.tree = tree
        self.temporaryTag = temporaryTag
        self.nextInode = firstInode ?? tree.inodeCapacity
        self.operationBase = operationBase
        self.tracksExactContent = tracksExactContent
        self.capturesCallSites = capturesCallSites
    }

    /// Forgets the operations recorded so far (the tree keeps their effects).
    public func clearOperations() { operations.removeAll(keepingCapacity: true) }

    /// The inode number the next new file or directory gets.
    public var nextFreeInode: Int32 { nextInode }

    /// Resets the inode counter (after the tree was rolled back to before those inodes existed).
    public func resetInodes(to first: Int32) { nextInode = first }

    // MARK: Resuming a recovery

    /// The counters a run continues from, besides the tree: the next inode and the temporary
    /// names given so far; nil while a file is open (a point where no run can be resumed).
    var counters: (nextInode: Int32, temporaryNames: Int)? {
        files.isEmpty ? (nextInode, temporaryCount) : nil
    }

    /// Carries out `operations`, recorded by an earlier run from a point where the tree and
    /// `counters` were what they are now: applies their effects, records them as its own, and
    /// ends with the counters that run ended with (`after`).
    func replay(
        _ operations: ArraySlice<FileOperation>, after: (nextInode: Int32, temporaryNames: Int),
        collapsedTerms: ArraySlice<UInt64> = [], collapsedSteps: Int = 0, treesCollapsed: Int = 0
    ) {
        for operation in operations {
            tree.apply(operation.effect, index: nextIndex)
            self.operations.append(operation)
        }
        nextInode = after.nextInode
        temporaryCount = after.temporaryNames
        self.collapsedTerms += collapsedTerms
        self.collapsedSteps += collapsedSteps
        self.treesCollapsed += treesCollapsed
    }

    /// Counts a tree removed at once, with what `shapesOfRemoval` says of it.
    func noteRemovedAtOnce(_ path: String, _ inode: Int32) {
        treesCollapsed += 1
        if let shapesOfRemoval { note(shapesOfRemoval(path, inode)) }
    }

    /// Counts a tree copied at once, with what `shapesOfLinking` says of it.
    func noteLinkedAtOnce(_ source: String, _ inode: Int32, _ destination: String, syncing: Bool) {
        treesCollapsed += 1
        if let shapesOfLinking { note(shapesOfLinking(source, inode, destination, syncing)) }
    }

    private func note(_ collapsed: RecoverySignature.Collapsed) {
        collapsedTerms += collapsed.terms
        collapsedSteps += collapsed.steps
    }

    // MARK: Path resolution

    /// The path in the tree of a path the store uses (its temporary names translated).
    func modelPath(_ path: String) -> String { translate(path) }

    /// The inode at a path, if anything is there.
    public func resolve(_ path: String) -> Int32? {
        let path = translate(path)
        guard let components = tree.pathIndex.components(of: path, names: tree.names) else { return nil }
        return tree.walk(components)
    }

    /// The directory that holds `path`'s last component, and that component's name id (interned).
    func parentAndName(_ path: String, operation: String) throws(FileSystemError) -> (directory: Int32, name: Int32) {
        let path = translate(path)
        if let split = tree.pathIndex.split(of: path) {
            let directory = try walk(split.parent, path, operation)
            return (directory, split.name)
        }
        let utf8 = path.utf8
        var end = utf8.endIndex
        while end > utf8.startIndex, utf8[utf8.index(before: end)] == 0x2F, utf8.index(before: end) > utf8.startIndex {
            end = utf8.index(before: end)
        }
        var slash = end
        while slash > utf8.startIndex, utf8[utf8.index(before: slash)] != 0x2F { slash = utf8.index(before: slash) }
        let last = Substring(path.utf8[slash..<end])
        guard !last.isEmpty, last != ".", last != ".." else { throw error(operation, path, EINVAL) }
        var parent: [Int32] = []
        if slash > utf8.startIndex {
            let parentEnd = utf8.index(before: slash)
            let parentPath = parentEnd == utf8.startIndex ? "/" : String(Substring(path.utf8[utf8.startIndex..<parentEnd]))
            guard let components = tree.pathIndex.components(of: parentPath, names: tree.names) else {
                throw error(operation, path, ENOENT)
            }
            parent = components
        }
        let directory = try walk(parent, path, operation)
        let name = tree.names.intern(String(last))
        tree.pathIndex.remember(parent: parent, name: name, of: path)
        return (directory, name)
    }

    /// The directory reached from the root through `components`, which must exist.
    private func walk(_ components: [Int32], _ path: String, _ operation: String) throws(FileSystemError) -> Int32 {
        guard let directory = tree.walk(components) else { throw error(operation, path, ENOENT) }
        guard tree.isDirectory(directory) == true else { throw error(operation, path, ENOTDIR) }
        return directory
    }

    func error(_ operation: String, _ path: String, _ code: Int32) -> FileSystemError {
        .io(operation: operation, path: path, code: code, reason: String(cString: strerror(code)))
    }

    private func record(_ kind: FileOperation.Kind, _ path: String, destination: String? = nil, size: Int = 0, _ effect: Effect) {
        let site = capturesCallSites ? CallSite.capture(skipping: 3) : .none
        operations.append(
            FileOperation(
                kind: kind, path: translate(path), destination: destination.map(translate), size: size,
                effect: effect, context: context, site: site))
    }

    private var nextIndex: Int32 { operationBase + Int32(operations.count) }

    /// Records an operation already resolved (its path in the tree's terms, see `modelPath`).
    func append(_ operation: FileOperation) { operations.append(operation) }

    private func prepare() throws(FileSystemError) {
        if let beforeOperation { try beforeOperation(operations.count) }
    }

    // MARK: FileSystem

    public func createExclusive(_ path: String, mode: UInt32) throws(FileSystemError) -> FileHandleID {
        let path = aliases[path] ?? canonicalTemporaryPath(path)
        let (directory, name): (Int32, Int32)
        do throws(FileSystemError) {
            (directory, name) = try parentAndName(path, operation: "open")
        } catch {
            throw .cannotCreate(path: path, reason: String(cString: strerror(ENOENT)))
        }
        if tree.lookup(directory, name) != nil { throw .exists(path: path) }
        try prepare()
        let inode = nextInode
        nextInode += 1
        tree.ensureNode(inode, directory: false)
        tree.setEntry(directory, name, inode)
        record(.create, path, .addEntry(directory: directory, name: name, inode: inode, isDirectory: false))
        return open(inode, path)
    }

    /// Opens a file for writing, truncating it (recorded as a truncate), or creates it.
    @_spi(CrashTesting) public func openTruncating(_ path: String, mode: UInt32) throws(FileSystemError) -> FileHandleID {
        guard let inode = resolve(path), let node = tree.fileState(inode), tree.isDirectory(inode) == false else {
            if let inode = resolve(path), tree.isDirectory(inode) == true { throw error("open", path, EISDIR) }
            return try createExclusive(path, mode: mode)
        }
        try prepare()
        let index = nextIndex
        let previous = tracksExactContent ? node.dataOperation : -2
        tree.setContent(inode, .empty, dataOperation: index, exact: tracksExactContent)
        record(.truncate, path, size: 0, .truncate(inode: inode, size: 0, previous: previous, result: .empty))
        return open(inode, path)
    }

    private func open(_ inode: Int32, _ path: String) -> FileHandleID {
        let handle = nextHandle
        nextHandle += 1
        files[handle] = OpenFile(inode: inode, position: 0, path: path)
        return FileHandleID(rawValue: handle)
    }

    public func write(_ handle: FileHandleID, _ bytes: ArraySlice<UInt8>) throws(FileSystemError) -> Int {
        guard let file = files[handle.rawValue], let node = tree.fileState(file.inode) else {
            throw error("write", "fd \(handle.rawValue)", EBADF)
        }
        try prepare()
        let index = nextIndex
        let previous = tracksExactContent ? node.dataOperation : -2
        let result = node.blob.writing(bytes, at: file.position)
        tree.setContent(file.inode, result, dataOperation: index, exact: tracksExactContent)
        record(
            .write, file.path, size: bytes.count,
            .write(inode: file.inode, offset: file.position, bytes: Array(bytes), previous: previous, result: result))
        files[handle.rawValue]?.position += bytes.count
        return bytes.count
    }

    public func fsync(_ handle: FileHandleID) throws(FileSystemError) {
        guard let file = files[handle.rawValue] else { throw error("fsync", "fd \(handle.rawValue)", EBADF) }
        try prepare()
        record(.fsync, file.path, .fsyncFile(inode: file.inode))
    }

    public func close(_ handle: FileHandleID) throws(FileSystemError) {
        guard files.removeValue(forKey: handle.rawValue) != nil else { throw error("close", "fd \(handle.rawValue)", EBADF) }
    }

    public func rename(_ source: String, to destination: String) throws(FileSystemError) {
        let from = try parentAndName(source, operation: "rename")
        guard let inode = tree.lookup(from.directory, from.name), let sourceIsDirectory = tree.isDirectory(inode) else {
            throw error("rename", "\(source) -> \(destination)", ENOENT)
        }
        let to = try parentAndName(destination, operation: "rename")
        if let existing = tree.lookup(to.directory, to.name), let targetIsDirectory = tree.isDirectory(existing) {
            if existing == inode { return }
            if targetIsDirectory && !sourceIsDirectory { throw error("rename", "\(source) -> \(destination)", EISDIR) }
            if !targetIsDirectory && sourceIsDirectory { throw error("rename", "\(source) -> \(destination)", ENOTDIR) }
            if targetIsDirectory && tree.node(existing)?.entries.isEmpty == false {
                throw error("rename", "\(source) -> \(destination)", ENOTEMPTY)
            }
        }
        try prepare()
        tree.setEntry(from.directory, from.name, nil)
        tree.setEntry(to.directory, to.name, inode)
        record(
            .rename, source, destination: destination,
            .rename(fromDirectory: from.directory, fromName: from.name, toDirectory: to.directory, toName: to.name, inode: inode))
        // A file still open is named by its new name in the operations written through it.
        for (handle, file) in files where file.inode == inode { files[handle]?.path = destination }
    }

    public func fsyncDirectory(_ path: String) throws(FileSystemError) {
        guard let inode = resolve(path), tree.isDirectory(inode) == true else {
            throw error("open directory", path, ENOENT)
        }
        try prepare()
        record(.fsyncDirectory, path, .fsyncDirectory(directory: inode))
    }

    public func link(_ source: String, to destination: String) throws(FileSystemError) {
        guard let inode = resolve(source), let isDirectory = tree.isDirectory(inode) else {
            throw error("link", "\(source) -> \(destination)", ENOENT)
        }
        guard !isDirectory else { throw error("link", "\(source) -> \(destination)", EPERM) }
        let to = try parentAndName(destination, operation: "link")
        if tree.lookup(to.directory, to.name) != nil { throw .exists(path: destination) }
        try prepare()
        tree.setEntry(to.directory, to.name, inode)
        record(.link, source, destination: destination, .addEntry(directory: to.directory, name: to.name, inode: inode, isDirectory: false))
    }

    public func unlink(_ path: String) throws(FileSystemError) {
        let at = try parentAndName(path, operation: "unlink")
        guard let inode = tree.lookup(at.directory, at.name), let isDirectory = tree.isDirectory(inode) else {
            throw error("unlink", path, ENOENT)
        }
        guard !isDirectory else { throw error("unlink", path, EISDIR) }
        try prepare()
        tree.setEntry(at.directory, at.name, nil)
        record(.unlink, path, .removeEntry(directory: at.directory, name: at.name))
    }

    public func mkdir(_ path: String, mode: UInt32) throws(FileSystemError) {
        let path = canonicalTemporaryPath(path, directory: true)
        let at: (directory: Int32, name: Int32)
        do throws(FileSystemError) {
            at = try parentAndName(path, operation: "mkdir")
        } catch {
            throw .cannotCreate(path: path, reason: String(cString: strerror(ENOENT)))
        }
        if tree.lookup(at.directory, at.name) != nil { throw .exists(path: path) }
        try prepare()
        let inode = nextInode
        nextInode += 1
        tree.ensureNode(inode, directory: true)
        tree.setEntry(at.directory, at.name, inode)
        record(.mkdir, path, .addEntry(directory: at.directory, name: at.name, inode: inode, isDirectory: true))
    }

    public func rmdir(_ path: String) throws(FileSystemError) {
        let at = try parentAndName(path, operation: "rmdir")
        guard let inode = tree.lookup(at.directory, at.name), let node = tree.node(inode) else { throw error("rmdir", path, ENOENT) }
        guard node.isDirectory else { throw error("rmdir", path, ENOTDIR) }
        guard node.entries.isEmpty else { throw error("rmdir", path, ENOTEMPTY) }
        try prepare()
        tree.setEntry(at.directory, at.name, nil)
        record(.rmdir, path, .removeEntry(directory: at.directory, name: at.name))
    }

    public func read(_ path: String, limit: Int) throws(FileSystemError) -> [UInt8] {
        try readBlob(path, limit: limit).bytes
    }

    /// The blob a read of at most `limit` bytes gives (what `read` and `digest(of:)` read).
    func readBlob(_ path: String, limit: Int) throws(FileSystemError) -> Blob {
        let blob = try readBlob(path)
        guard blob.bytes.count <= limit else { throw FileSystemError.tooLarge(path: path, size: Int64(blob.bytes.count), limit: limit) }
        return blob
    }

    /// The model keeps caches as it is read: one thread at a time.
    public var readsConcurrently: Bool { false }

    public func size(of path: String) -> Int? {
        guard let inode = resolve(path), tree.isDirectory(inode) == false, let blob = tree.blob(of: inode) else { return nil }
        return blob.bytes.count
    }

    func readBlob(_ path: String) throws(FileSystemError) -> Blob {
        guard let inode = resolve(path), let isDirectory = tree.isDirectory(inode) else { throw error("open", path, ENOENT) }
        guard !isDirectory, let blob = tree.blob(of: inode) else { throw error("read", path, EISDIR) }
        return blob
    }

    /// The blob of a file (no copy), or nil.
    public func blob(at path: String) -> Blob? {
        guard let inode = resolve(path), tree.isDirectory(inode) == false else { return nil }
        return tree.blob(of: inode)
    }

    public func list(_ path: String) throws(FileSystemError) -> [String] {
        let entries = try directoryEntries(path)
        return tree.pathIndex.sortedNames(entries, key: listAnswer(entries), names: tree.names).map { tree.names.name($0) }
    }

    public func entries(of path: String) throws(FileSystemError) -> [DirectoryEntry] {
        let entries = try directoryEntries(path)
        return tree.pathIndex.sortedNames(entries, key: listAnswer(entries), names: tree.names).map { id in
            DirectoryEntry(name: tree.names.name(id), kind: entries[id].flatMap { tree.isDirectory($0) }.map { $0 ? .directory : .file })
        }
    }

    /// For the names the tree tracks (`NameTable.isTransient`: the writer's temporary and backup
    /// names), from the directories' content hashes: a directory's two differ exactly when such a
    /// name lies below it, so only those are walked. For any other names, from a walk of every
    /// directory, as a real file system would be walked: the answer never depends on which names
    /// the model happens to track. Nil when no directory is at `path`.
    @_spi(CrashTesting) public func directories(below path: String, holdingNamesStartingWith names: NamePrefixes) -> [String]? {
        guard let inode = resolve(path), tree.isDirectory(inode) == true else { return nil }
        var found: [String] = []
        if names == ModelFileSystem.trackedNames, answersHintsByHash {
            if tree.holdsTransientNames(inode) { collectTracked(inode, path, &found) }
        } else {
            collect(inode, path, names, &found)
        }
        return sortedByBytes(found)
    }

    /// The names whose directories the tree's hashes tell apart.
    static let trackedNames = NamePrefixes([AtomicWriter.temporaryPrefix, AtomicWriter.backupPrefix])

    /// Adds `path` (of `directory`, which holds a tracked name somewhere below it) if it holds
    /// one itself, and the same of each subdirectory that holds one below it.
    private func collectTracked(_ directory: Int32, _ path: String, _ found: inout [String]) {
        var holds = false
        for (name, target) in tree.entries(of: directory) {
            if tree.names.isTransient(name) {
                holds = true
            } else if tree.isDirectory(target) == true, tree.holdsTransientNames(target) {
                collectTracked(target, joinPath(path, tree.names.name(name)), &found)
            }
        }
        if holds { found.append(path) }
    }

    /// Adds `path` if `directory` holds a name `names` matches, and the same of every
    /// subdirectory not so named, depth first.
    private func collect(_ directory: Int32, _ path: String, _ names: NamePrefixes, _ found: inout [String]) {
        var holds = false
        for (name, target) in tree.entries(of: directory) {
            let text = tree.names.name(name)
            if names.matches(text) {
                holds = true
            } else if tree.isDirectory(target) == true {
                collect(target, joinPath(path, text), names, &found)
            }
        }
        if holds { found.append(path) }
    }

    /// The entries of the directory at `path` (without copying its node).
    func directoryEntries(_ path: String) throws(FileSystemError) -> [Int32: Int32] {
        guard let inode = resolve(path), let isDirectory = tree.isDirectory(inode) else { throw error("opendir", path, ENOENT) }
        guard isDirectory else { throw error("opendir", path, ENOTDIR) }
        return tree.entries(of: inode)
    }

    /// A key of a listing: its names, in any order.
    func listAnswer(_ entries: [Int32: Int32]) -> UInt64 { tree.listingKey(entries) }

    public func kind(of path: String) -> FileKind? {
        guard let inode = resolve(path), let isDirectory = tree.isDirectory(inode) else { return nil }
        return isDirectory ? .directory : .file
    }
}

/// The model answers the crash simulator's hooks its own way: a truncate recorded as one, where
/// leftovers are from its hashes, and a temporary it did not name itself as a crashed run's.
@_spi(CrashTesting) extension ModelFileSystem: FileSystemHooks {}
