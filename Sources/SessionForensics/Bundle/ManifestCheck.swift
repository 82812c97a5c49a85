import Archive
import SessionStore

/// Checks an extracted bundle against its manifest: every listed file present with its size and
/// SHA-256, and no regular file in the bundle's root that the manifest does not list.
enum ManifestCheck {
    static func verify(
        _ manifest: BundleManifest, digests: [String: TarExtraction.Digest],
        staged: StagedDirectory, file: String
    ) throws {
        guard case .success(let root) = ArchivePath.components(of: manifest.root), root.count == 1 else {
            throw ArchiveError.manifestMismatch(
                file: file, entry: manifest.root, reason: "the manifest's root is not a plain directory name")
        }
        guard staged.kind(of: root[0]) == .directory else {
            throw ArchiveError.manifestMismatch(file: file, entry: manifest.root, reason: "the bundle has no directory by that name")
        }
        var listed = Set<String>()
        for entry in manifest.files {
            let path = root[0] + "/" + entry.path
            listed.insert(path)
            guard let digest = digests[path] else {
                throw ArchiveError.manifestMismatch(file: file, entry: entry.path, reason: "listed in the manifest but missing")
            }
            guard digest.size == entry.size else {
                throw ArchiveError.manifestMismatch(
                    file: file, entry: entry.path, reason: "size \(digest.size), manifest says \(entry.size)")
            }
            guard digest.sha256 == entry.sha256.lowercased() else {
                throw ArchiveError.manifestMismatch(file: file, entry: entry.path, reason: "SHA-256 differs from the manifest")
            }
        }
        for path in digests.keys.sorted() where !listed.contains(path) {
            throw ArchiveError.manifestMismatch(file: file, entry: path, reason: "not listed in the manifest")
        }
    }
}
