/// One logical file operation of the store, as recorded: what was asked, on which paths, where
/// from, and its effect on the tree.
public struct FileOperation: Sendable {
    /// The logical operations of docs/crash-simulation.md (recording).
    public enum Kind: String, Sendable {
        case create
        case write
        case truncate
        case fsync
        case fsyncDirectory = "fsync-dir"
        case rename
        case link
        case unlink
        case mkdir
        case rmdir
    }

    public let kind: Kind
    /// The path operated on (a rename's or link's source).
    public let path: String
    /// A rename's or link's destination.
    public let destination: String?
    /// Bytes written (write), or the new size (truncate).
    public let size: Int
    public let effect: Effect
    /// What the workload was doing (event, save), as the driver said.
    public let context: String
    /// Where in the code the call came from.
    public let site: CallSite

    /// A one-line description: `rename a -> b`, `write 1372 bytes to a`.
    public var summary: String {
        switch kind {
        case .write: return "write \(size) bytes to \(path)"
        case .truncate: return "truncate \(path) to \(size) bytes"
        case .rename, .link: return "\(kind.rawValue) \(path) -> \(destination ?? "?")"
        default: return "\(kind.rawValue) \(path)"
        }
    }
}
