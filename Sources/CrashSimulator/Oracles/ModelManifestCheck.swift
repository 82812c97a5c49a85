import FileSystemKit
import SessionStore

/// Whether a set-aside entry's manifest.json lists exactly the entry's files, each with its size
/// and SHA-256: `TabCensus.manifestVerifies`, read from the model's tree itself (its inodes and
/// blobs) instead of through path after path, for the crash states of an exploration.
///
/// The same rules: the manifest must be a file that parses, every listed file must name a path,
/// a size and a digest; the entry's regular files below it (all names, the top manifest.json
/// left out) must be exactly the listed paths, each of the listed size and digest. A model holds
/// only files and directories, so nothing else can be found.
enum ModelManifestCheck {
    /// The verdict for the entry directory `entry` of `tree`; `digest` gives a blob's SHA-256 in
    /// lowercase hexadecimal (the caller may remember it by content).
    static func verifies(_ tree: ModelTree, entry: Int32, digest: (Blob) -> String) -> Bool {
        guard tree.isDirectory(entry) == true, let manifestName = tree.names.id(of: SessionSetAside.manifestFile),
            let manifest = tree.lookup(entry, manifestName), tree.isDirectory(manifest) == false,
            let bytes = tree.blob(of: manifest)?.bytes, let expected = TabCensus.listedFiles(manifest: bytes)
        else { return false }
        var matched = 0
        func walk(_ directory: Int32, _ relative: String) -> Bool {
            for (name, target) in tree.entries(of: directory) {
                let path = joinPath(relative, tree.names.name(name))
                if tree.isDirectory(target) == true {
                    guard walk(target, path) else { return false }
                    continue
                }
                if relative.isEmpty && name == manifestName { continue }
                guard let want = expected[path], let blob = tree.blob(of: target), Int64(blob.count) == want.size,
                    digest(blob) == want.sha256
                else { return false }
                matched += 1
            }
            return true
        }
        // Every file found is listed, and as many as are listed: the two sets are equal.
        return walk(entry, "") && matched == expected.count
    }
}
