import SessionStore

/// Where `compress` reads its input from: the real disk (`DiskSource`: open directories, reads
/// relative to them, every entry's lstat data) or any other file system (`FileSystemSource`: the
/// crash simulator's model, walked through its listings).
protocol BundleSource {
    /// Where a walked entry is read from.
    associatedtype Location

    /// The entry at `path`, a symbolic link not followed; `ArchiveError.unreadable` when there is none.
    func status(_ path: String) throws -> WalkedEntry
    /// Where the file at `path` itself is read from.
    func location(of path: String) -> Location
    /// Calls `visit` for every entry under `root` (not for `root` itself), depth first in byte
    /// order of names, each directory before its content, never following a symbolic link;
    /// `output`, when it is being written inside `root`, is left out.
    func walk(_ root: String, leavingOut output: AtomicFileOutput, visit: (WalkedEntry, Location) throws -> Void) throws
    /// Streams a file's content to `sink`; returns its size. With `expectedSize` the file must
    /// still have that size (it is in the tar header already): one that changed while it was
    /// read is an error, not a silently wrong archive.
    func copy(_ location: Location, expectedSize: Int64?, to sink: (UnsafeRawBufferPointer) throws -> Void) throws -> Int64
    /// The target of a symbolic link.
    func linkTarget(_ location: Location) throws -> String
    /// The user and group that the manifest member is recorded as belonging to.
    var manifestOwner: (user: UInt32, group: UInt32) { get }
    /// The name of a user id ("" when unknown).
    func userName(_ id: UInt32) -> String
    /// The name of a group id ("" when unknown).
    func groupName(_ id: UInt32) -> String
}
