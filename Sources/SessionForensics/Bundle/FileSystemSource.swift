import Archive
import FileSystemKit
import SessionStore

/// A file system other than the real disk as `compress` reads it (the crash simulator's model):
/// walked through `entries(of:)`, each file read whole. Such a file system keeps no times or
/// owners, and maybe no permissions: entries have time 0, owner 0 without a name, and the
/// permissions it knows or else 0755 for a directory and 0644 for a file, so that the same tree
/// always makes the same bundle.
struct FileSystemSource: BundleSource {
    let fileSystem: any ReadableFileSystem

    func status(_ path: String) throws -> WalkedEntry {
        guard let kind = fileSystem.kind(of: path) else { throw ArchiveError.unreadable(path: path, reason: "No such file or directory") }
        return entry(path, relative: "", kind: kind)
    }

    func location(of path: String) -> String { path }

    func walk(_ root: String, leavingOut output: AtomicFileOutput, visit: (WalkedEntry, String) throws -> Void) throws {
        // The output has no inode number here to be told by: it is its final path, or a
        // temporary name of it beside that path.
        let outputDirectory = parentPath(output.path)
        let temporaryPrefix = AtomicWriter.temporaryPrefix + lastPathComponent(output.path) + "."
        func walk(_ directory: String, _ relative: String) throws {
            let entries: [DirectoryEntry]
            do { entries = try fileSystem.entries(of: directory) } catch {
                throw ArchiveError.unreadable(path: directory, reason: error.description)
            }
            for listed in entries {
                let path = joinPath(directory, listed.name)
                if path == output.path || (directory == outputDirectory && listed.name.hasPrefix(temporaryPrefix)) { continue }
                guard let kind = listed.kind else { throw ArchiveError.unreadable(path: path, reason: "No such file or directory") }
                let child = relative.isEmpty ? listed.name : relative + "/" + listed.name
                try visit(entry(path, relative: child, kind: kind), path)
                if kind == .directory { try walk(path, child) }
            }
        }
        try walk(root, "")
    }

    func copy(_ location: String, expectedSize: Int64?, to sink: (UnsafeRawBufferPointer) throws -> Void) throws -> Int64 {
        let bytes: [UInt8]
        do { bytes = try fileSystem.read(location) } catch { throw ArchiveError.unreadable(path: location, reason: error.description) }
        if let expectedSize, Int64(bytes.count) != expectedSize {
            throw ArchiveError.unreadable(
                path: location, reason: "file \(Int64(bytes.count) > expectedSize ? "grew" : "shrank") while it was being read")
        }
        try bytes.withUnsafeBytes { try sink($0) }
        return Int64(bytes.count)
    }

    func linkTarget(_ location: String) throws -> String {
        throw ArchiveError.unreadable(path: location, reason: "symbolic links are not read from this file system")
    }

    var manifestOwner: (user: UInt32, group: UInt32) { (0, 0) }

    func userName(_ id: UInt32) -> String { "" }

    func groupName(_ id: UInt32) -> String { "" }

    private func entry(_ path: String, relative: String, kind: FileKind) -> WalkedEntry {
        let walkedKind: WalkedEntry.Kind
        switch kind {
        case .file: walkedKind = .file
        case .directory: walkedKind = .directory
        case .other: walkedKind = .other
        }
        var entry = WalkedEntry(
            relative: relative, kind: walkedKind, size: Int64(kind == .file ? fileSystem.size(of: path) ?? 0 : 0),
            mode: fileSystem.permissions(of: path) ?? (kind == .directory ? BundleCompressor.usualDirectoryMode : 0o644),
            modificationTime: 0, userID: 0, groupID: 0, device: 0, inode: 0)
        if kind == .directory { entry.isEmpty = ((try? fileSystem.list(path)) ?? []).isEmpty }
        return entry
    }
}
