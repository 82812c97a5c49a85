/// The part of a tree below one of its directories, as a tree of its own: how an unpacked bundle
/// that holds one profile is read as that profile.
public struct SubTree: ReadableTree {
    public let base: any ReadableTree
    /// The directory, relative to the base tree's root.
    public let prefix: String

    public init(_ base: any ReadableTree, prefix: String) {
        self.base = base
        self.prefix = prefix
    }

    public var displayName: String { treePath(base.displayName, prefix) }

    public func kind(of path: String) -> TreeEntryKind? { base.kind(of: treePath(prefix, path)) }
    public func list(_ path: String) -> [String] { base.list(treePath(prefix, path)) }
    public func read(_ path: String) throws(FormatError) -> [UInt8] { try base.read(treePath(prefix, path)) }
    public func size(of path: String) -> Int? { base.size(of: treePath(prefix, path)) }
    public func snapshot(of path: String, reading file: String, measuring measured: String) -> DirectorySnapshot {
        base.snapshot(of: treePath(prefix, path), reading: file, measuring: measured)
    }
}
