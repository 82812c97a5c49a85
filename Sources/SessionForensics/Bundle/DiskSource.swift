import Archive
import SessionStore

#if canImport(Glibc)
    import FileSystemKit
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The real disk as `compress` reads it: walked by open directories (`DirectoryWalker`), each
/// entry read relative to its open parent, with the permissions, times and owners lstat gives.
final class DiskSource: BundleSource {
    /// An entry's open parent directory, its name there, and its path for messages.
    struct Location {
        var parent: Int32
        var name: String
        var display: String
    }

    private let reader = FileContentReader()
    private var owners = OwnerNames()

    func status(_ path: String) throws -> WalkedEntry {
        guard let entry = DirectoryWalker.status(path, relative: "") else {
            throw ArchiveError.unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        return entry
    }

    func location(of path: String) -> Location { Location(parent: AT_FDCWD, name: path, display: path) }

    func walk(_ root: String, leavingOut output: AtomicFileOutput, visit: (WalkedEntry, Location) throws -> Void) throws {
        let temporary = DirectoryWalker.status(output.temporaryPath, relative: "")
        try DirectoryWalker.walk(root) { walked, parent, name in
            if let temporary, walked.device == temporary.device, walked.inode == temporary.inode { return }
            try visit(walked, Location(parent: parent, name: name, display: joinPath(root, walked.relative)))
        }
    }

    func copy(_ location: Location, expectedSize: Int64?, to sink: (UnsafeRawBufferPointer) throws -> Void) throws -> Int64 {
        try reader.copy(location.name, at: location.parent, display: location.display, expectedSize: expectedSize, to: sink)
    }

    func linkTarget(_ location: Location) throws -> String {
        try FileContentReader.linkTarget(location.name, at: location.parent, display: location.display)
    }

    /// The user running `compress`.
    var manifestOwner: (user: UInt32, group: UInt32) { (getuid(), getgid()) }

    func userName(_ id: UInt32) -> String { owners.user(id) }

    func groupName(_ id: UInt32) -> String { owners.group(id) }
}
