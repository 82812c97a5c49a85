import FileSystemKit
import SessionFormats
import SessionStore

/// Recovery may set a session aside, never lose any of it: each entry recovery made holds every
/// file the session's directory held before recovery, byte for byte, and its manifest verifies.
///
/// Judged from the two trees alone (before recovery and after), not from the metadata hash or
/// from anything the store reports but where it put each entry: a set-aside copy that skips tab
/// directories, or one whose files never reached the disk, fails here even when the store wrote a
/// manifest that agrees with what it copied.
enum SetAsideOracle {
    /// What recovery set aside, read after recovery: per entry, its files and whether its manifest
    /// verifies; and the session directories that are gone, with every entry of their session.
    struct Capture {
        var entries: [(entry: String, original: String, files: [String: [UInt8]], verifies: Bool)] = []
        var vanished: [(directory: String, entries: [[String: [UInt8]]])] = []
    }

    /// The session directories with a list (`session_metadata.pb`) of both sides, relative to the profile.
    static func sessionDirectories(_ tree: ModelTree, profile: String) -> [String] {
        let fileSystem = ModelFileSystem(tree: tree)
        var found: [String] = []
        for incognito in [false, true] {
            let storage = joinPath(ProfileLayout.stateRoot(incognito: incognito), ProfileLayout.optimizedDirectory)
            for name in (try? fileSystem.list(joinPath(profile, storage))) ?? [] where !name.hasPrefix(".") {
                let directory = joinPath(storage, name)
                if fileSystem.kind(of: joinPath(profile, directory, ProfileLayout.metadataFile)) == .file { found.append(directory) }
            }
        }
        return found
    }

    /// Reads the entries `outcome` names in the tree as recovery left it, and what became of the
    /// session directories `before` listed (`sessionDirectories` before recovery).
    static func capture(_ tree: ModelTree, profile: String, outcome: RecoveryOutcome?, before: [String]) -> Capture {
        var capture = Capture()
        let fileSystem = ModelFileSystem(tree: tree)
        for directory in before where fileSystem.kind(of: joinPath(profile, directory)) != .directory {
            let parts = pathComponents(directory)
            let id = parts.last ?? ""
            let backups = joinPath(profile, SessionSetAside.backupsDirectory(incognito: parts.first == ProfileLayout.incognitoDirectory), id)
            let entries = ((try? fileSystem.list(backups)) ?? []).map { files(fileSystem, joinPath(backups, $0)) }
            capture.vanished.append((directory, entries))
        }
        guard let outcome, !outcome.setAside.isEmpty else { return capture }
        for (entry, original) in outcome.setAside.sorted(by: { $0.key < $1.key }) {
            let path = joinPath(profile, entry)
            var files = files(fileSystem, path)
            files["manifest.json"] = nil
            capture.entries.append((entry, original, files, TabCensus.manifestVerifies(fileSystem, entry: path)))
        }
        return capture
    }

    /// The findings: `capture` (after recovery) against the tree before recovery.
    static func check(_ capture: Capture, before tree: ModelTree, profile: String) -> [Finding] {
        guard !capture.entries.isEmpty || !capture.vanished.isEmpty else { return [] }
        let fileSystem = ModelFileSystem(tree: tree)
        var findings: [Finding] = []
        for (directory, entries) in capture.vanished {
            let original = files(fileSystem, joinPath(profile, directory))
            let kept = entries.contains { entry in original.allSatisfy { entry[$0.key] == $0.value } }
            if !kept {
                findings.append(Finding(.collateralLoss, "recovery removed \(directory) without setting it aside whole: no entry in Backups/ holds its \(original.count) files"))
            }
        }
        for item in capture.entries {
            if !item.verifies {
                findings.append(Finding(.collateralLoss, "recovery set aside \(item.original) as \(item.entry), whose manifest does not verify"))
            }
            let original = files(fileSystem, joinPath(profile, item.original))
            let missing = original.keys.filter { item.files[$0] == nil }.sorted()
            let changed = original.keys.filter { item.files[$0] != nil && item.files[$0] != original[$0] }.sorted()
            if let first = missing.first ?? changed.first {
                findings.append(Finding(.collateralLoss, "recovery set aside \(item.original) as \(item.entry), which lacks or changed \(missing.count + changed.count) of its \(original.count) files, e.g. \(first)"))
            }
        }
        return findings
    }

    /// Every regular file below `directory` but temporary and backup names, by relative path.
    private static func files(_ fileSystem: ModelFileSystem, _ directory: String) -> [String: [UInt8]] {
        let paths = FileListing.files(fileSystem, under: directory, strict: false) { name in
            !AtomicWriter.isTemporaryName(name) && !AtomicWriter.isBackupName(name)
        } ?? []
        var found: [String: [UInt8]] = [:]
        for path in paths { found[path] = try? fileSystem.read(joinPath(directory, path)) }
        return found
    }
}
