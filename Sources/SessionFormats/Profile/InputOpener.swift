#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Opens a path given on the command line as a `LocatedInput`: a directory or a file on disk, or a
/// gzip file (`.gz`, `.tar.gz`) read in memory.
public enum InputOpener {
    /// Opens `path`; throws `.unreadable` when it does not exist and `.notASession` when it is not a session.
    public static func open(_ path: String) throws(FormatError) -> LocatedInput {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw .unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        let absolute = absolutePath(path)
        let components = absolute.split(separator: "/").map(String.init)
        if info.st_mode & S_IFMT == S_IFDIR {
            guard access(path, R_OK | X_OK) == 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
            return try InputLocator.locate(tree: DiskTree(root: path), ancestry: components)
        }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .notASession(path: path, reason: "not a file or directory") }
        if CompressedInput.isGzip(path) {
            return try CompressedInput.open(path, ancestry: Array(components.dropLast()))
        }
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[..<$0]) } ?? "."
        let file = slash.map { String(path[path.index(after: $0)...]) } ?? path
        return try InputLocator.locate(tree: DiskTree(root: directory.isEmpty ? "/" : directory), file: file,
                                       ancestry: Array(components.dropLast()))
    }

    /// `path` made absolute against the working directory, with `.` and `..` resolved lexically.
    public static func absolutePath(_ path: String) -> String {
        var base = ""
        if !path.hasPrefix("/") {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            if getcwd(&buffer, buffer.count) != nil {
                base = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            }
        }
        var parts: [Substring] = []
        for part in (base + "/" + path).split(separator: "/") {
            if part == "." { continue }
            if part == ".." { _ = parts.popLast(); continue }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }
}
