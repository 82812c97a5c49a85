import FileSystemKit
import SessionFormats
import SessionStore

extension SessionSetAside {
    /// Prefix of a restored copy being put together beside its live place.
    public static let restoringPrefix = ".sessionctl-restore."
    /// Prefix of an entry being removed (renamed out of the list first).
    public static let droppingPrefix = ".sessionctl-drop."

    /// Puts the entry at `entry` back at `destination` (both relative to the profile; nothing may
    /// be there) and removes it. The entry stays whole, manifest and all, until its copy is live:
    /// a copy of hard links beside the live place, without the manifest, made durable, renamed
    /// into place; only then is the entry removed. New directories get `mode`.
    ///
    /// With `only`, just those files (relative to the entry) are put back, and the entry stays
    /// whole where it is, holding what was left behind as well.
    public func restore(entry: String, to destination: String, mode: UInt32, only files: [String]? = nil) throws(FileSystemError) {
        let source = joinPath(profile, entry)
        let live = joinPath(profile, destination)
        let staged = joinPath(parentPath(live), SessionSetAside.restoringPrefix + lastPathComponent(live))
        try writer.makeDirectories(parentPath(live), mode: mode)
        if writer.fileSystem.kind(of: staged) != nil { try writer.removeTree(staged) }
        if let files {
            try linkFiles(files, from: source, to: staged, mode: mode)
        } else {
            try writer.linkTree(source, to: staged, mode: mode)
            for name in try writer.fileSystem.list(staged) where SessionSetAside.isManifestOrItsTemporary(name) {
                try writer.fileSystem.unlink(joinPath(staged, name))
            }
        }
        try writer.seal(staged)
        try writer.move(staged, to: live)
        if files == nil { try removeEntry(entry) }
    }

    /// Hard-links `files` (relative paths) from `source` into a new directory `destination`,
    /// every directory made and fsynced as `linkTree` does.
    private func linkFiles(_ files: [String], from source: String, to destination: String, mode: UInt32) throws(FileSystemError) {
        try writer.fileSystem.mkdir(destination, mode: mode)
        var directories: [String] = [destination]
        for file in files {
            let parent = parentPath(joinPath(destination, file))
            if writer.fileSystem.kind(of: parent) == nil {
                try writer.makeDirectories(parent, mode: mode)
                directories.append(parent)
            }
            try writer.fileSystem.link(joinPath(source, file), to: joinPath(destination, file))
        }
        for directory in directories { try writer.syncDirectory(directory) }
    }

    /// Removes an entry (relative to the profile) so that it leaves the list at once: renamed to a
    /// hidden name beside it, then removed; what an interruption leaves under that name is removed
    /// by `InterruptedCommands`.
    public func removeEntry(_ entry: String) throws(FileSystemError) {
        let source = joinPath(profile, entry)
        let hidden = joinPath(parentPath(source), SessionSetAside.droppingPrefix + lastPathComponent(source))
        if writer.fileSystem.kind(of: hidden) != nil { try writer.removeTree(hidden) }
        try writer.move(source, to: hidden)
        try writer.removeTree(hidden)
    }

    /// Whether a name in an entry is its manifest or a temporary file of the manifest's.
    public static func isManifestOrItsTemporary(_ name: String) -> Bool {
        name == manifestFile || name.hasPrefix(AtomicWriter.temporaryPrefix + manifestFile + ".")
    }

    /// The entries (relative to the profile) of the session whose live directory is `directory`,
    /// oldest first: the stamped directories under its `Backups/<id>/` that hold a manifest.
    public func entries(of directory: String) -> [String] {
        let parts = pathComponents(directory)
        guard let id = parts.last else { return [] }
        let incognito = parts.first == ProfileLayout.incognitoDirectory
        let parent = joinPath(SessionSetAside.backupsDirectory(incognito: incognito), String(id))
        guard let stamps = try? writer.fileSystem.list(joinPath(profile, parent)) else { return [] }
        return stamps.filter {
            AsideStamp.parse($0) != nil && writer.fileSystem.kind(of: joinPath(profile, parent, $0, SessionSetAside.manifestFile)) == .file
        }
        .sorted().map { joinPath(parent, $0) }
    }
}
