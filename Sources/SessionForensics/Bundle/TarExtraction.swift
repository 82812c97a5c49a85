import Archive
import FileSystemKit
import SessionStore

/// Writes the members of a tar stream into a staged directory, refusing every member that could
/// land outside it: absolute paths, `..`, paths through a symbolic link, links pointing out,
/// devices and FIFOs. Hashes each regular file for the manifest check.
struct TarExtraction: TarEntryHandler {
    /// Size and SHA-256 of an extracted regular file.
    struct Digest: Equatable {
        var size: Int64
        var sha256: String
    }

    private struct OpenFile {
        var path: String
        var handle: FileHandleID?
        var hasher = SHA256()
        var size: Int64 = 0
        var modificationTime: Int64
        /// Content kept in memory instead (a top-level MANIFEST.json, decided on at the end).
        var captured: [UInt8]?
    }

    let staged: StagedDirectory
    /// The archive's name in messages.
    let file: String
    let limit: Int64
    private(set) var digests: [String: Digest] = [:]
    /// The top-level MANIFEST.json member, held back until the end.
    private(set) var manifest: (bytes: [UInt8], mode: UInt32, time: Int64)?
    private var symbolicLinks: Set<String> = []
    private var directoryTimes: [(String, Int64)] = []
    private var current: OpenFile?
    private var currentMode: UInt32 = 0

    init(staged: StagedDirectory, file: String, limit: Int64) {
        self.staged = staged
        self.file = file
        self.limit = limit
    }

    private func refuse(_ entry: TarEntry, _ reason: String) -> ArchiveError {
        .unsafeEntry(file: file, entry: entry.path, reason: reason)
    }

    mutating func begin(_ entry: TarEntry) throws {
        let parts: [String]
        switch ArchivePath.components(of: entry.path) {
        case .success(let value): parts = value
        case .failure(let refusal): throw refuse(entry, refusal.description)
        }
        if parts.isEmpty {
            guard entry.kind == .directory else { throw refuse(entry, "a member without a name") }
            current = nil
            return
        }
        let path = parts.joined(separator: "/")
        for depth in 1..<parts.count where symbolicLinks.contains(parts[0..<depth].joined(separator: "/")) {
            throw refuse(entry, "path passes through a symbolic link")
        }
        try makeParents(parts, entry: entry)
        current = nil
        switch entry.kind {
        case .file:
            guard entry.size <= limit else { throw ArchiveError.tooLarge(file: file, limit: limit) }
            symbolicLinks.remove(path)
            digests[path] = nil
            if parts == [BundleManifest.memberName] {
                current = OpenFile(path: path, modificationTime: entry.modificationTime, captured: [])
            } else {
                let handle = try staged.createFile(path, mode: entry.mode & 0o777)
                current = OpenFile(path: path, handle: handle, modificationTime: entry.modificationTime)
            }
            currentMode = entry.mode & 0o777
        case .directory:
            if symbolicLinks.contains(path) { throw refuse(entry, "a directory over a symbolic link") }
            try staged.makeDirectory(path, mode: entry.mode & 0o777)
            directoryTimes.append((path, entry.modificationTime))
        case .symbolicLink:
            if let refusal = ArchivePath.checkLinkTarget(entry.linkTarget, linkDirectory: Array(parts.dropLast())) {
                throw refuse(entry, refusal.description)
            }
            try staged.symlink(entry.linkTarget, at: path)
            symbolicLinks.insert(path)
            digests[path] = nil
        case .hardLink:
            let target: [String]
            switch ArchivePath.components(of: entry.linkTarget) {
            case .success(let value): target = value
            case .failure(let refusal): throw refuse(entry, "hard link target: \(refusal.description)")
            }
            let targetPath = target.joined(separator: "/")
            guard let digest = digests[targetPath] else {
                throw refuse(entry, "hard link to '\(entry.linkTarget)', which is not a file extracted before it")
            }
            try staged.link(targetPath, to: path)
            symbolicLinks.remove(path)
            digests[path] = digest
        case .characterDevice, .blockDevice, .fifo:
            throw refuse(entry, "device files and FIFOs are never extracted")
        case .other(let flag):
            throw refuse(entry, "unsupported tar member type '\(String(UnicodeScalar(flag)))'")
        }
    }

    /// Creates missing parent directories (tar archives need not list them).
    private func makeParents(_ parts: [String], entry: TarEntry) throws {
        for depth in 1..<parts.count {
            let parent = parts[0..<depth].joined(separator: "/")
            switch staged.kind(of: parent) {
            case nil: try staged.makeDirectory(parent)
            case .directory: continue
            default: throw refuse(entry, "'\(parent)' is not a directory")
            }
        }
    }

    mutating func content(_ bytes: UnsafeRawBufferPointer) throws {
        guard var file = current else { return }
        current = nil
        file.size += Int64(bytes.count)
        if file.captured != nil {
            file.captured?.append(contentsOf: bytes)
        } else {
            file.hasher.update(bytes)
            if let handle = file.handle { try staged.write(handle, bytes, file: file.path) }
        }
        current = file
    }

    mutating func end() throws {
        guard var file = current else { return }
        current = nil
        if let captured = file.captured {
            manifest = (captured, currentMode, file.modificationTime)
            return
        }
        if let handle = file.handle { try staged.closeFile(handle) }
        try staged.setModificationTime(file.path, seconds: file.modificationTime)
        digests[file.path] = Digest(size: file.size, sha256: SHA256.hex(file.hasher.finalize()))
    }

    /// Writes a held-back MANIFEST.json that turned out not to be a sessionctl manifest as a plain file.
    mutating func writeManifestAsFile() throws {
        guard let manifest else { return }
        let handle = try staged.createFile(BundleManifest.memberName, mode: manifest.mode)
        try manifest.bytes.withUnsafeBytes { try staged.write(handle, $0, file: BundleManifest.memberName) }
        try staged.closeFile(handle)
        try staged.setModificationTime(BundleManifest.memberName, seconds: manifest.time)
        digests[BundleManifest.memberName] = Digest(size: Int64(manifest.bytes.count), sha256: SHA256.hex(SHA256.hash(manifest.bytes)))
    }

    /// Sets directory times last (creating entries changes them), deepest first.
    func restoreDirectoryTimes() throws {
        for (path, time) in directoryTimes.reversed() { try staged.setModificationTime(path, seconds: time) }
    }
}
