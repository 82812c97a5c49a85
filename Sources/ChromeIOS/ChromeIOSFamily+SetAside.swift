import FileSystemKit
import SessionFormats
import SessionModel

/// Chrome for iOS sets a session aside as its directory, moved whole: `SessionStorage/<id>`, or
/// the legacy `Sessions/<id>` (incognito: under `OTR/`).
extension ChromeIOSFamily {
    /// The session `session`'s directory (`SessionStorage/<id>` when there, else `Sessions/<id>`),
    /// or every live session of the kind in the format Chrome loads (`SessionStorage/` when it
    /// exists, else `Sessions/`), by id.
    public func setAsideUnits(_ input: LocatedInput, session: SessionID?, incognito: Bool) throws(FileSystemError) -> [SetAsideUnit] {
        let tree = input.tree
        // Links are not followed: a session directory that is a link is refused where it would move.
        let isDirectory = { (path: String) in tree.fileSystem.kind(of: tree.absolute(path)) == .directory }
        let root = ProfileLayout.stateRoot(incognito: incognito)
        let unit = { (id: SessionID, directory: String) in
            SetAsideUnit(session: id, incognito: incognito, content: .directory(directory))
        }
        if let session {
            let directory = [ProfileLayout.optimizedDirectory, ProfileLayout.legacyDirectory].map { joinPath(root, $0, session) }
                .first(where: isDirectory)
            return directory.map { [unit(session, $0)] } ?? []
        }
        let optimized = joinPath(root, ProfileLayout.optimizedDirectory)
        let storage = isDirectory(optimized) ? optimized : joinPath(root, ProfileLayout.legacyDirectory)
        guard isDirectory(storage) else { return [] }
        return try tree.fileSystem.list(tree.absolute(storage)).compactMap { name in
            let directory = joinPath(storage, name)
            guard !name.hasPrefix("."), isDirectory(directory) else { return nil }
            return unit(name, directory)
        }
    }
}

extension ChromeIOSFamily {
    /// A directory holding `SessionStorage/`, `Sessions/`, `OTR/` or `Backups/` is a profile (one
    /// that may hold only set-aside entries); `[OTR/]SessionStorage/<id>` or `.../Sessions/<id>`
    /// is that session's directory in the profile above; a directory holding exactly one such
    /// profile one level down (an unpacked bundle) is that profile.
    public func place(of path: String, fileSystem: any FileSystem) -> ProfilePlace? {
        let markers = ProfileLayout.stateDirectories
        if markers.contains(where: { fileSystem.resolvedKind(of: joinPath(path, $0)) == .directory }) {
            return ProfilePlace(profile: path)
        }
        let storage = parentPath(path)
        if [ProfileLayout.optimizedDirectory, ProfileLayout.legacyDirectory].contains(lastPathComponent(storage)) {
            let above = parentPath(storage)
            let incognito = lastPathComponent(above) == ProfileLayout.incognitoDirectory
            return ProfilePlace(profile: incognito ? parentPath(above) : above, session: lastPathComponent(path), incognito: incognito)
        }
        let children = ((try? fileSystem.list(path)) ?? []).filter { child in
            markers.contains { fileSystem.resolvedKind(of: joinPath(path, child, $0)) == .directory }
        }
        if children.count == 1, let child = children.first {
            return ProfilePlace(profile: joinPath(path, child), foundInside: child)
        }
        return nil
    }
}

extension ChromeIOSFamily {
    /// Session directories under `[OTR/]SessionStorage` and `[OTR/]Sessions`, each written with its
    /// list (session_metadata.pb or session.plist) last; a migration's old tree under the
    /// profile or `OTR/`.
    public var stagingLayout: StagingLayout {
        let roots = [false, true].map(ProfileLayout.stateRoot(incognito:))
        return StagingLayout(
            sessionParents: roots.flatMap { root in
                [ProfileLayout.optimizedDirectory, ProfileLayout.legacyDirectory].map { joinPath(root, $0) }
            },
            completionFiles: [ProfileLayout.metadataFile, ProfileLayout.legacySessionFile], displacedTreeParents: roots)
    }
}
