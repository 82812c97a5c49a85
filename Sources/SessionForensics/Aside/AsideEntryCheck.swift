import Archive
import FileSystemKit
import SessionFormats
import SessionStore

/// What reading a set-aside entry back found, before anything of it is restored: the files that
/// read and match its manifest, and each file that does not, with why.
public struct AsideEntryCheck: Sendable, Equatable {
    /// A file of the entry that cannot be restored as it is.
    public struct Problem: Sendable, Equatable {
        /// The file, relative to the entry (the entry's own name for Chrome's one-file backup).
        public var path: String
        /// Why, in a few words.
        public var reason: String
    }

    /// The files that read and verify, relative to the entry.
    public var verified: [String]
    /// The files that do not.
    public var problems: [Problem]

    /// True when every file of the entry reads and verifies.
    public var isWhole: Bool { problems.isEmpty }
}

extension Aside {
    /// Reads every file of an entry back and checks it: against the manifest's size and SHA-256
    /// when the entry has a manifest (a manifest that does not parse fails every file); a file the
    /// manifest does not list, one it lists that is missing, a symbolic link or special file (a
    /// restore would drop it) and one that cannot be read are problems. Chrome's one-file backup
    /// must decode as a session.plist.
    public func check(_ entry: AsideEntry) throws(FileSystemError) -> AsideEntryCheck {
        let root = joinPath(profile, entry.path)
        if entry.origin == .chrome {
            do {
                _ = try LegacySessionCodec.decodeWindow(try fileSystem.read(root), file: entry.path)
                return AsideEntryCheck(verified: [lastPathComponent(entry.path)], problems: [])
            } catch {
                return AsideEntryCheck(
                    verified: [], problems: [.init(path: lastPathComponent(entry.path), reason: "not a session Chrome loads: \(error)")])
            }
        }
        var problems: [AsideEntryCheck.Problem] = []
        var found: [String: FileDigest] = [:]
        try walk(root, relative: "", found: &found, problems: &problems)
        let manifestPath = joinPath(root, AsideManifest.fileName)
        var listed: [String: AsideManifest.File]?
        switch fileSystem.kind(of: manifestPath) {
        case nil:
            listed = nil
        case .file:
            guard let manifest = (try? fileSystem.read(manifestPath)).flatMap(AsideManifest.decode) else {
                let unverified = found.keys.sorted().map {
                    AsideEntryCheck.Problem(path: $0, reason: "the entry's manifest cannot be read, so it cannot be verified")
                }
                return AsideEntryCheck(verified: [], problems: problems + unverified)
            }
            listed = Dictionary(manifest.files.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        default:
            let unverified = found.keys.sorted().map {
                AsideEntryCheck.Problem(path: $0, reason: "the entry's manifest is not a regular file, so it cannot be verified")
            }
            return AsideEntryCheck(verified: [], problems: problems + unverified)
        }
        var verified: [String] = []
        for (path, digest) in found.sorted(by: { $0.key < $1.key }) {
            guard let listed else {
                verified.append(path)
                continue
            }
            guard let expected = listed[path] else {
                problems.append(.init(path: path, reason: "not listed in the entry's manifest"))
                continue
            }
            if expected.size != digest.size || expected.sha256.lowercased() != digest.sha256 {
                problems.append(.init(path: path, reason: "its size or SHA-256 differs from the manifest's"))
            } else {
                verified.append(path)
            }
        }
        for path in (listed?.keys.sorted() ?? []) where found[path] == nil && !problems.contains(where: { $0.path == path }) {
            problems.append(.init(path: path, reason: "listed in the manifest but missing"))
        }
        return AsideEntryCheck(verified: verified, problems: problems.sorted { $0.path < $1.path })
    }

    /// Digests every regular file below `root` (the manifest at the top and temporary names left out).
    private func walk(
        _ root: String, relative: String, found: inout [String: FileDigest],
        problems: inout [AsideEntryCheck.Problem]
    ) throws(FileSystemError) {
        for name in try fileSystem.list(relative.isEmpty ? root : joinPath(root, relative)) {
            if relative.isEmpty && AsideManifest.isManifestOrItsTemporary(name) { continue }
            if AtomicWriter.isTemporaryName(name) { continue }
            let path = relative.isEmpty ? name : joinPath(relative, name)
            switch fileSystem.kind(of: joinPath(root, path)) {
            case .directory: try walk(root, relative: path, found: &found, problems: &problems)
            case .file:
                do throws(FileSystemError) {
                    found[path] = FileDigest(of: try fileSystem.read(joinPath(root, path)))
                } catch {
                    problems.append(.init(path: path, reason: "it cannot be read (\(error.reason))"))
                }
            default:
                problems.append(.init(path: path, reason: "a symbolic link or special file, which a restore would drop"))
            }
        }
    }
}
