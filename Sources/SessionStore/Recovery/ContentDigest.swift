import Archive
import FileSystemKit
import SessionFormats

/// One digest of a set of files, each by its path, size and SHA-256: the same for a live session
/// directory and for the set-aside entry whose manifest lists exactly those files, so that a
/// record made before a set-aside can later tell its entry from every other.
public enum ContentDigest {
    /// The digest of `files` (paths relative to their directory), in any order: SHA-256 of one
    /// line `path NUL size NUL sha256 LF` a file, sorted by the path's bytes, as lowercase hex.
    public static func of(_ files: [(path: String, digest: FileDigest)]) -> String {
        let sorted = files.sorted { Array($0.path.utf8).lexicographicallyPrecedes(Array($1.path.utf8)) }
        var bytes: [UInt8] = []
        for file in sorted {
            bytes += Array(file.path.utf8) + [0] + Array(String(file.digest.size).utf8) + [0] + Array(file.digest.sha256.utf8) + [0x0A]
        }
        return SHA256.hex(SHA256.hash(bytes))
    }

    /// The digest of the files a set-aside manifest lists; nil when the manifest cannot be
    /// parsed or a file of it is described without a path, a size or a SHA-256.
    public static func ofManifest(_ bytes: [UInt8]) -> String? {
        guard let parsed = try? JSONParser.parse(bytes, file: SessionSetAside.manifestFile),
            case .array(let listed)? = parsed["files"]
        else { return nil }
        var files: [(path: String, digest: FileDigest)] = []
        for file in listed {
            guard case .string(let path)? = file["path"], case .int(let size)? = file["size"],
                case .string(let sha)? = file["sha256"]
            else { return nil }
            files.append((path, FileDigest(size: size, sha256: sha)))
        }
        return of(files)
    }

    /// The digest of the manifest of the entry at `entry` (an absolute path); nil without one.
    public static func ofEntry(_ entry: String, fileSystem: any ReadableFileSystem) -> String? {
        let manifest = joinPath(entry, SessionSetAside.manifestFile)
        guard fileSystem.kind(of: manifest) == .file, let bytes = try? fileSystem.read(manifest) else { return nil }
        return ofManifest(bytes)
    }

    /// The digest of the directory at `path` as its set-aside copy would list it: every regular
    /// file below it (names `isLeftOut` skipped, a manifest at its top left out).
    public static func ofDirectory(_ path: String, fileSystem: any ReadableFileSystem) throws(FileSystemError) -> String {
        var files: [(path: String, digest: FileDigest)] = []
        let digester = FileDigester(fileSystem)
        func walk(_ relative: String) throws(FileSystemError) {
            for entry in try fileSystem.entries(of: relative.isEmpty ? path : joinPath(path, relative)) where !isLeftOut(entry.name) {
                let child = relative.isEmpty ? entry.name : joinPath(relative, entry.name)
                switch entry.kind {
                case .file where child != SessionSetAside.manifestFile:
                    files.append((child, try digester.digest(of: joinPath(path, child))))
                case .directory: try walk(child)
                default: continue
                }
            }
        }
        try walk("")
        return of(files)
    }

    /// Whether a name inside a session directory is left out of its set-aside copy, so out of
    /// the digest too: temporary files and backups of interrupted writes.
    public static func isLeftOut(_ name: String) -> Bool {
        AtomicWriter.isTemporaryName(name) || AtomicWriter.isBackupName(name)
    }
}
