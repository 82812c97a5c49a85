#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A read-only file tree that sessions are read from: a directory on disk, or an archive held in memory.
///
/// Paths are relative to the tree's root, `/`-separated, with "" for the root itself.
public protocol ReadableTree: Sendable {
    /// A name for the tree in messages (the path the user gave).
    var displayName: String { get }
    /// What is at a path: nil when nothing is there.
    func kind(of path: String) -> TreeEntryKind?
    /// Names of the entries of a directory, sorted; empty when it is not a directory.
    func list(_ path: String) -> [String]
    /// The bytes of a regular file.
    func read(_ path: String) throws(FormatError) -> [UInt8]
    /// The size of a regular file, without reading it.
    func size(of path: String) -> Int?
    /// A directory's kind and entries, with one entry's bytes and another's size (see `DirectorySnapshot`).
    func snapshot(of path: String, reading file: String, measuring measured: String) -> DirectorySnapshot
}

#if canImport(Glibc)
/// An open directory stream (`DIR *`).
public typealias DirectoryStream = OpaquePointer
#elseif canImport(Darwin)
/// An open directory stream (`DIR *`).
public typealias DirectoryStream = UnsafeMutablePointer<DIR>
#endif

/// The kind of an entry of a tree.
public enum TreeEntryKind: Sendable, Equatable {
    case file
    case directory
    case other
}

/// Joins tree-relative path components.
public func treePath(_ parts: String...) -> String {
    parts.filter { !$0.isEmpty }.joined(separator: "/")
}

/// Joins two tree-relative path components (the common case, without building arrays).
public func treePath(_ first: String, _ second: String) -> String {
    if first.isEmpty { return second }
    if second.isEmpty { return first }
    return first + "/" + second
}

/// A directory on disk, read with POSIX calls.
public struct DiskTree: ReadableTree {
    /// The directory on disk.
    public let root: String
    public var displayName: String { root }

    public init(root: String) { self.root = root }

    /// The largest file a reader accepts (Chrome's own files are far smaller; state.pb is at most 5 MiB).
    public static let maxFileSize = 1 << 30

    /// The on-disk path of a tree path.
    public func absolute(_ path: String) -> String {
        if path.isEmpty { return root }
        var result = root
        result.reserveCapacity(root.utf8.count + 1 + path.utf8.count)
        if !root.hasSuffix("/") { result += "/" }
        result += path
        return result
    }

    public func kind(of path: String) -> TreeEntryKind? {
        var info = stat()
        guard stat(absolute(path), &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .directory
        default: return .other
        }
    }

    public func size(of path: String) -> Int? {
        var info = stat()
        guard stat(absolute(path), &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    public func list(_ path: String) -> [String] {
        DiskTree.directoryEntries(absolute(path)) ?? []
    }

    /// The names of a directory's entries (without `.` and `..`) sorted by their UTF-8 bytes, or
    /// nil when it cannot be opened as a directory (errno tells why).
    public static func directoryEntries(_ absolute: String) -> [String]? {
        guard let dir = opendir(absolute) else { return nil }
        defer { closedir(dir) }
        return names(of: dir)
    }

    /// The entry names (without `.` and `..`) of an open directory stream, sorted by their UTF-8 bytes.
    public static func names(of dir: DirectoryStream) -> [String] {
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        // For ASCII names String's own order is byte order, and much faster to compare.
        if names.allSatisfy({ $0.utf8.allSatisfy { $0 < 0x80 } }) { return names.sorted() }
        return names.sorted(by: utf8Precedes)
    }

    /// True when `first`'s UTF-8 bytes sort before `second`'s (what `lexicographicallyPrecedes` of
    /// the UTF-8 views says, compared with memcmp).
    static func utf8Precedes(_ first: String, _ second: String) -> Bool {
        var first = first, second = second
        return first.withUTF8 { a in
            second.withUTF8 { b in
                let common = min(a.count, b.count)
                if common > 0, let x = a.baseAddress, let y = b.baseAddress {
                    let order = memcmp(x, y, common)
                    if order != 0 { return order < 0 }
                }
                return a.count < b.count
            }
        }
    }

    public func read(_ path: String) throws(FormatError) -> [UInt8] {
        try DiskTree.readFile(absolute(path), display: path)
    }

    /// Reads a whole regular file with POSIX calls; errors name `display`.
    public static func readFile(_ absolute: String, display: String) throws(FormatError) -> [UInt8] {
        // O_NONBLOCK: a FIFO or device planted in a profile must not make a reader wait forever.
        let fd = open(absolute, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw .unreadable(path: display, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        return try readOpenFile(fd, display: display)
    }

    /// Reads the whole regular file open on `fd` (which stays open); errors name `display`.
    public static func readOpenFile(_ fd: Int32, display: String) throws(FormatError) -> [UInt8] {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadable(path: display, reason: String(cString: strerror(errno))) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .unreadable(path: display, reason: "not a regular file") }
        guard info.st_size <= DiskTree.maxFileSize else {
            throw .notASession(path: display, reason: "\(info.st_size) bytes is larger than any session file (limit \(DiskTree.maxFileSize))")
        }
        // Read the size fstat gave in one go; an empty stat size (e.g. procfs) reads on to the end.
        var buffer = [UInt8](repeating: 0, count: max(Int(info.st_size), 0))
        var filled = 0
        var chunk = [UInt8](repeating: 0, count: 0)
        while true {
            let target = filled < buffer.count
            let count: Int
            if target {
                count = buffer.withUnsafeMutableBytes { raw in Glibc.read(fd, raw.baseAddress! + filled, raw.count - filled) }
            } else {
                if chunk.isEmpty { chunk = [UInt8](repeating: 0, count: 4096) }
                count = chunk.withUnsafeMutableBytes { raw in Glibc.read(fd, raw.baseAddress, raw.count) }
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path: display, reason: String(cString: strerror(errno)))
            }
            if count == 0 { break }
            if !target { buffer.append(contentsOf: chunk[0..<count]) }
            filled += count
            // The size fstat reported has arrived: stop without a second read to confirm the end
            // (a file that changes while being read gives a snapshot, never a hang).
            if target && filled == buffer.count && buffer.count > 0 { break }
            guard filled <= DiskTree.maxFileSize else {
                throw .notASession(path: display, reason: "grew beyond \(DiskTree.maxFileSize) bytes while being read")
            }
        }
        if filled < buffer.count { buffer.removeSubrange(filled...) }
        return buffer
    }
}
