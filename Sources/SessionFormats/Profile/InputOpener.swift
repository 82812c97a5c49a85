import FileSystemKit

/// Opens a path given on the command line as a `LocatedInput`: a directory or a file on disk, a
/// gzip file (`.gz`, `.tar.gz`) read in memory, or a member of a bundle named as the reading
/// commands print it, `ARCHIVE/MEMBER` (`ticket.tar.gz/Profile/SessionStorage/<id>`).
public enum InputOpener {
    /// Opens `path` on `fileSystem`; throws `.unreadable` when it does not exist or cannot be
    /// read and `.notASession` when it is not a session. The browser family is recognised from
    /// the content, unless `browser` names it.
    public static func open(
        _ path: String, fileSystem: any ReadableFileSystem = POSIXFileSystem(), browser: (any BrowserFamily)? = nil
    ) throws(FormatError) -> LocatedInput {
        guard let kind = fileSystem.resolvedKind(of: path) else {
            // A path into a bundle, as the reading commands print it: ARCHIVE/MEMBER.
            if fileSystem is POSIXFileSystem, let (archive, member) = archiveMember(path) {
                return try CompressedInput.open(
                    archive, member: member, ancestry: Array(pathComponents(absolutePath(archive)).dropLast()), browser: browser)
            }
            // Opening it tells why nothing is there (no entry, no permission, a file on the way).
            var reason = "No such file or directory"
            do { _ = try fileSystem.read(path, limit: 0) } catch { reason = error.reason }
            throw .unreadable(path: path, reason: reason)
        }
        let components = pathComponents(absolutePath(path))
        if kind == .directory {
            do { _ = try fileSystem.list(path) } catch { throw .unreadable(path: path, reason: error.reason) }
            return try BrowserFamilies.locate(
                tree: ReadableTree(fileSystem: fileSystem, root: path), ancestry: components, browser: browser)
        }
        guard kind == .file else { throw .notASession(path: path, reason: "not a file or directory") }
        // The file is read once, whichever families look at it before the one that reads it.
        let directory = parentPath(path)
        let file = joinPath(directory, lastPathComponent(path))
        let once = ReadOnceFileSystem(fileSystem, only: file)
        // Compressed input is streamed from the real disk; other file systems hold session files only.
        if fileSystem is POSIXFileSystem, let bytes = try? once.readBytes(file, limit: maximumFileSize), CompressedInput.isGzip(bytes) {
            return try CompressedInput.open(path, ancestry: Array(components.dropLast()), browser: browser)
        }
        return try BrowserFamilies.locate(
            tree: ReadableTree(fileSystem: once, root: directory),
            file: lastPathComponent(path), ancestry: Array(components.dropLast()), browser: browser)
    }

    /// The gzip file a missing `path` runs through, and the rest of the path (a member inside it):
    /// nil when no prefix of `path` is a gzip file on disk.
    public static func archiveMember(_ path: String) -> (archive: String, member: String)? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count > 1 else { return nil }
        for end in stride(from: parts.count - 1, to: 0, by: -1) {
            let prefix = parts[..<end].joined(separator: "/")
            guard !prefix.isEmpty else { continue }
            switch POSIXFileSystem().resolvedKind(of: prefix) {
            case .file?:
                let member = parts[end...].filter { !$0.isEmpty }.joined(separator: "/")
                return CompressedInput.isGzip(prefix) && !member.isEmpty ? (prefix, member) : nil
            case nil: continue
            default: return nil
            }
        }
        return nil
    }

    /// `path` made absolute against the working directory, with `.` and `..` resolved lexically.
    public static func absolutePath(_ path: String) -> String {
        let base = path.hasPrefix("/") ? "" : (SystemCall.workingDirectory() ?? "")
        var parts: [Substring] = []
        for part in (base + "/" + path).split(separator: "/") {
            if part == "." { continue }
            if part == ".." {
                _ = parts.popLast()
                continue
            }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }
}
