#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Archive
import SessionStore

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
/// never following symbolic links.
enum DirectoryWalker {
    /// The lstat data of a path, or nil with errno set.
    static func stat(_ path: String, relative: String) -> WalkedEntry? {
        var info = Glibc.stat()
        guard lstat(path, &info) == 0 else { return nil }
        let kind: WalkedEntry.Kind
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .file
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symbolicLink
        default: kind = .other
        }
        return WalkedEntry(relative: relative, kind: kind, size: Int64(info.st_size), mode: UInt32(info.st_mode & 0o7777),
                           modificationTime: Int64(info.st_mtim.tv_sec), userID: info.st_uid, groupID: info.st_gid,
                           device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// Calls `visit` for every entry under `root` (not for `root` itself).
    static func walk(_ root: String, visit: (WalkedEntry) throws -> Void) throws {
        try walk(root, relative: "", names: list(root), visit: visit)
    }

    private static func list(_ directory: String) throws -> [String] {
        do {
            return try POSIXFileSystem().list(directory)
        } catch .io(_, _, _, let reason) {
            throw ArchiveError.unreadable(path: directory, reason: reason)
        } catch {
            throw ArchiveError.unreadable(path: directory, reason: error.description)
        }
    }

    private static func walk(_ root: String, relative: String, names: [String], visit: (WalkedEntry) throws -> Void) throws {
        for name in names {
            let path = relative.isEmpty ? name : relative + "/" + name
            let location = joinPath(root, path)
            guard var entry = stat(location, relative: path) else {
                throw ArchiveError.unreadable(path: location, reason: String(cString: strerror(errno)))
            }
            guard entry.kind == .directory else {
                try visit(entry)
                continue
            }
            let children = try list(location)
            entry.isEmpty = children.isEmpty
            try visit(entry)
            try walk(root, relative: path, names: children, visit: visit)
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
