import FileSystemKit
import SessionFormats

extension SessionSetAside {
    /// Prefix of a restored copy being put together beside its live place.
    public static let restoringPrefix = ".sessionctl-restore."
    /// Prefix of an entry being removed (renamed out of the list first).
    public static let droppingPrefix = ".sessionctl-drop."

    /// Puts the entry at `entry` back at `destination` (both relative to the profile; nothing may
    /// be there) and removes it. The entry stays whole, manifest and all, until its copy is live:
    /// a copy of hard links beside the live place, without the manifest, made durable, renamed
    /// into place; only then is the entry removed. New directories get `mode`.
    public func restore(entry: String, to destination: String, mode: UInt32) throws(FileSystemError) {
        let source = joinPath(profile, entry)
        let live = joinPath(profile, destination)
        let staged = joinPath(parentPath(live), SessionSetAside.restoringPrefix + lastPathComponent(live))
        try writer.makeDirectories(parentPath(live), mode: mode)
        if writer.fileSystem.kind(of: staged) != nil { try writer.removeTree(staged) }
        try writer.linkTree(source, to: staged, mode: mode)
        for name in try writer.fileSystem.list(staged) where SessionSetAside.isManifestOrItsTemporary(name) {
            try writer.fileSystem.unlink(joinPath(staged, name))
        }
        try writer.seal(staged)
        try writer.move(staged, to: live)
        try removeEntry(entry)
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
        return stamps.filter { AsideStamp.parse($0) != nil && writer.fileSystem.kind(of: joinPath(profile, parent, $0, SessionSetAside.manifestFile)) == .file }
            .sorted().map { joinPath(parent, $0) }
    }
}
