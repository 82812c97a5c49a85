/// What one file operation does to a tree, resolved to inodes and interned names when it was recorded.
///
/// Effects carry their intended targets (ALICE's micro-operations): a rename names the inode it
/// moves, so applying it in a crash state where an earlier operation was lost still does what the
/// program asked for, and what is lost shows.
public enum Effect: Sendable {
    /// An entry made to point at an inode: create (file), mkdir (directory), link.
    case addEntry(directory: Int32, name: Int32, inode: Int32, isDirectory: Bool)
    /// An entry removed: unlink, rmdir.
    case removeEntry(directory: Int32, name: Int32)
    /// An entry moved, replacing any destination: in three steps (unlink destination, unlink
    /// source, link destination) under the pessimistic model.
    case rename(fromDirectory: Int32, fromName: Int32, toDirectory: Int32, toName: Int32, inode: Int32)
    /// Bytes written at an offset. `previous` is the inode's previous data operation (-1: none;
    /// -2: unknown) and `result` the content this produced on the file as it was then.
    case write(inode: Int32, offset: Int, bytes: [UInt8], previous: Int32, result: Blob)
    /// The file cut or extended to `size`.
    case truncate(inode: Int32, size: Int, previous: Int32, result: Blob)
    /// A file's data and size made durable.
    case fsyncFile(inode: Int32)
    /// A directory's entries made durable.
    case fsyncDirectory(directory: Int32)
    /// A copy of the directory tree at `source` made of hard links, named `name` in `directory`,
    /// its directories numbered from `firstInode` (see `ModelTree.linkCopy`): what
    /// `ModelFileSystem.linkTree` records when it makes the copy in one step.
    case linkTree(source: Int32, directory: Int32, name: Int32, firstInode: Int32)

    /// True for fsync and directory fsync.
    public var isBarrier: Bool {
        switch self {
        case .fsyncFile, .fsyncDirectory: return true
        default: return false
        }
    }

    /// True for operations on a file's data (write, truncate).
    public var isData: Bool {
        switch self {
        case .write, .truncate: return true
        default: return false
        }
    }
}

extension ModelTree {
    /// Applies an effect in full; `index` identifies it among the recording's operations.
    public func apply(_ effect: Effect, index: Int32) {
        switch effect {
        case .addEntry(let directory, let name, let inode, let isDirectory):
            ensureNode(inode, directory: isDirectory)
            setEntry(directory, name, inode)
        case .removeEntry(let directory, let name):
            setEntry(directory, name, nil)
        case .rename(let fromDirectory, let fromName, let toDirectory, let toName, let inode):
            ensureNode(inode, directory: false)
            if lookup(fromDirectory, fromName) == inode { setEntry(fromDirectory, fromName, nil) }
            setEntry(toDirectory, toName, inode)
        case .write(let inode, let offset, let bytes, let previous, let result):
            ensureNode(inode, directory: false)
            guard let node = fileState(inode) else { return }
            if node.exact && node.dataOperation == previous && previous != -2 {
                setContent(inode, result, dataOperation: index, exact: true)
            } else {
                setContent(inode, node.blob.writing(bytes[...], at: offset), dataOperation: index, exact: false)
            }
        case .truncate(let inode, let size, let previous, let result):
            ensureNode(inode, directory: false)
            guard let node = fileState(inode) else { return }
            if node.exact && node.dataOperation == previous && previous != -2 {
                setContent(inode, result, dataOperation: index, exact: true)
            } else {
                setContent(inode, node.blob.resized(to: size), dataOperation: index, exact: false)
            }
        case .linkTree(let source, let directory, let name, let firstInode):
            linkCopy(of: source, into: directory, name: name, firstInode: firstInode)
        case .fsyncFile, .fsyncDirectory:
            break
        }
    }

    /// Applies some of a rename's three steps (bit 0: unlink destination, bit 1: unlink source,
    /// bit 2: link destination).
    public func applyRenameSteps(_ effect: Effect, steps: Int) {
        guard case .rename(let fromDirectory, let fromName, let toDirectory, let toName, let inode) = effect else { return }
        ensureNode(inode, directory: false)
        // A directory never has two names (no file system links directories): where the steps
        // would link the destination and keep the source, the source goes too.
        let unlinksSource = steps & 2 != 0 || (steps & 4 != 0 && isDirectory(inode) == true)
        if steps & 1 != 0 { setEntry(toDirectory, toName, nil) }
        if unlinksSource, lookup(fromDirectory, fromName) == inode { setEntry(fromDirectory, fromName, nil) }
        if steps & 4 != 0 { setEntry(toDirectory, toName, inode) }
    }

    /// Replaces a file's content with a variant no recording produced (a torn write).
    public func applyVariant(inode: Int32, content: Blob, index: Int32) {
        ensureNode(inode, directory: false)
        setContent(inode, content, dataOperation: index, exact: false)
    }
}
