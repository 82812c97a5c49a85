import Archive
import SessionFormats
import SessionStore

#if canImport(Glibc)
    import FileSystemKit
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One entry met while walking a directory tree: its path relative to the root and its lstat data.
struct WalkedEntry {
    enum Kind {
        case file
        case directory
        case symbolicLink
        case other
    }

    var relative: String
    var kind: Kind
    var size: Int64
    var mode: UInt32
    var modificationTime: Int64
    var userID: UInt32
    var groupID: UInt32
    var device: UInt64
    var inode: UInt64
    /// For a directory: true when it has no entries.
    var isEmpty = false
}

/// Walks a directory tree depth-first in byte order of names, each directory before its content,
/// never following symbolic links. Entries are looked up relative to their open parent directory,
/// not by their whole path from the root.
enum DirectoryWalker {
    /// The lstat data of a path, or nil with errno set.
    static func status(_ path: String, relative: String) -> WalkedEntry? {
        status(at: AT_FDCWD, path, relative: relative)
    }

    /// The lstat data of `name` in the open directory `directory`, or nil with errno set.
    private static func status(at directory: Int32, _ name: String, relative: String) -> WalkedEntry? {
        var info = stat()
        guard fstatat(directory, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
        let kind: WalkedEntry.Kind
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .file
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symbolicLink
        default: kind = .other
        }
        return WalkedEntry(
            relative: relative, kind: kind, size: Int64(info.st_size), mode: UInt32(info.st_mode & 0o7777),
            modificationTime: Int64(info.st_mtim.tv_sec), userID: info.st_uid, groupID: info.st_gid,
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// Calls `visit` for every entry under `root` (not for `root` itself), with the descriptor of
    /// its open parent directory (valid during the call) and its name there.
    static func walk(_ root: String, visit: (WalkedEntry, _ parent: Int32, _ name: String) throws -> Void) throws {
        let directory = try open(root, at: AT_FDCWD, display: root)
        defer { closedir(directory) }
        try walk(directory, names: SystemCall.entryNames(of: directory), root: root, relative: "", visit: visit)
    }

    /// Opens a directory (never through a symbolic link) for listing and for lookups relative to it.
    private static func open(_ name: String, at parent: Int32, display: String) throws -> DirectoryStream {
        let fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { throw ArchiveError.unreadable(path: display, reason: String(cString: strerror(errno))) }
        guard let directory = fdopendir(fd) else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw ArchiveError.unreadable(path: display, reason: reason)
        }
        return directory
    }

    private static func walk(
        _ directory: DirectoryStream, names: [String], root: String, relative: String,
        visit: (WalkedEntry, Int32, String) throws -> Void
    ) throws {
        let fd = dirfd(directory)
        for name in names {
            let path = relative.isEmpty ? name : relative + "/" + name
            guard var entry = status(at: fd, name, relative: path) else {
                throw ArchiveError.unreadable(path: joinPath(root, path), reason: String(cString: strerror(errno)))
            }
            guard entry.kind == .directory else {
                try visit(entry, fd, name)
                continue
            }
            let child = try open(name, at: fd, display: joinPath(root, path))
            defer { closedir(child) }
            let children = SystemCall.entryNames(of: child)
            entry.isEmpty = children.isEmpty
            try visit(entry, fd, name)
            try walk(child, names: children, root: root, relative: path, visit: visit)
        }
    }
}

/// User and group names for ids, looked up once each.
struct OwnerNames {
    private var users: [UInt32: String] = [:]
    private var groups: [UInt32: String] = [:]

    mutating func user(_ id: UInt32) -> String {
        if let name = users[id] { return name }
        let name = getpwuid(id).map { String(cString: $0.pointee.pw_name) } ?? ""
        users[id] = name
        return name
    }

    mutating func group(_ id: UInt32) -> String {
        if let name = groups[id] { return name }
        let name = getgrgid(id).map { String(cString: $0.pointee.gr_name) } ?? ""
        groups[id] = name
        return name
    }
}
