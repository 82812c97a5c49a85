import FileSystemKit
import SessionFormats
import SessionStore

/// Copies a directory on disk into a `ModelTree`, so that the simulator's oracles can judge it.
enum DiskLoader {
    /// A tree holding the directory at `path` at `profile` (`WorkloadRecorder.profile` unless
    /// given), and that directory's inode.
    static func load(_ path: String, at profile: String = WorkloadRecorder.profile) -> (tree: ModelTree, profile: Int32?) {
        let tree = ModelTree()
        let model = ModelFileSystem(tree: tree)
        let disk = POSIXFileSystem()
        for name in [
            ProfileLayout.optimizedDirectory, ProfileLayout.incognitoDirectory, ProfileLayout.backupsDirectory,
            ProfileLayout.metadataFile, ProfileLayout.tabDataFile
        ] {
            _ = tree.names.intern(name)
        }
        func copy(_ source: String, _ destination: String) {
            guard (try? model.mkdir(destination, mode: 0o755)) != nil, let names = try? disk.list(source) else { return }
            for name in names {
                let from = joinPath(source, name)
                let to = joinPath(destination, name)
                switch disk.kind(of: from) {
                case .directory:
                    copy(from, to)
                case .file:
                    guard let bytes = try? disk.read(from), let handle = try? model.createExclusive(to, mode: 0o644) else { continue }
                    if !bytes.isEmpty { _ = try? model.write(handle, bytes[...]) }
                    try? model.close(handle)
                default:
                    continue
                }
            }
        }
        if disk.kind(of: path) == .directory { copy(path, profile) }
        return (tree, model.resolve(profile))
    }

    /// Copies a directory tree on disk (files by content), for keeping a failing state.
    static func copyTree(_ source: String, to destination: String) throws(FileSystemError) {
        let disk = POSIXFileSystem()
        try disk.mkdir(destination, mode: 0o755)
        for name in try disk.list(source) {
            let from = joinPath(source, name)
            let to = joinPath(destination, name)
            switch disk.kind(of: from) {
            case .directory:
                try copyTree(from, to: to)
            case .file:
                let bytes = try disk.read(from)
                let handle = try disk.createExclusive(to, mode: 0o644)
                var offset = 0
                while offset < bytes.count { offset += try disk.write(handle, bytes[offset...]) }
                try disk.close(handle)
            default:
                continue
            }
        }
    }

    /// What a directory tree on disk holds, path by path (directories as nil), with the process
    /// id that the store puts in temporary names taken out: two runs that left the same files
    /// compare equal.
    static func fingerprint(_ path: String) -> [String: [UInt8]?] {
        let disk = POSIXFileSystem()
        var result: [String: [UInt8]?] = [:]
        func walk(_ directory: String, _ relative: String) {
            guard let names = try? disk.list(directory) else { return }
            for name in names {
                var shown = name
                if AtomicWriter.isTemporaryName(name) {
                    // `.sessionctl-tmp.<name>.<pid>.<serial>`: the pid differs from run to run.
                    var parts = name.split(separator: ".", omittingEmptySubsequences: false)
                    if parts.count >= 3 { parts[parts.count - 2] = "*" }
                    shown = parts.joined(separator: ".")
                }
                let from = joinPath(directory, name)
                let key = relative.isEmpty ? shown : relative + "/" + shown
                switch disk.kind(of: from) {
                case .directory:
                    result[key] = .some(nil)
                    walk(from, key)
                case .file:
                    result[key] = .some(try? disk.read(from))
                default:
                    continue
                }
            }
        }
        walk(path, "")
        return result
    }

    /// Removes a directory tree on disk.
    static func remove(_ path: String) {
        let disk = POSIXFileSystem()
        guard disk.kind(of: path) == .directory, let names = try? disk.list(path) else {
            try? disk.unlink(path)
            return
        }
        for name in names { remove(joinPath(path, name)) }
        try? disk.rmdir(path)
    }
}
