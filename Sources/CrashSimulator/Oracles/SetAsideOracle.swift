import FileSystemKit
import SessionForensics
import SessionFormats
import SessionStore

/// Recovery may set a session aside, never lose any of it: each entry recovery made holds every
/// file the session's directory held before recovery, byte for byte, and its manifest verifies.
///
/// Judged from the two trees alone (before recovery and after), not from the metadata hash or
/// from anything the store reports but where it put each entry: a set-aside copy that skips tab
/// directories, or one whose files never reached the disk, fails here even when the store wrote a
/// manifest that agrees with what it copied. Directories are compared by their content hashes
/// (`ModelTree.contentHash(of:leavingOutTransient:)`) first, in O(1); their files are read only
/// when the hashes differ, to say what differs.
enum SetAsideOracle {
    /// What recovery set aside, read after recovery: per entry, its files (nil when its content
    /// hash shows it holds what the original held before recovery) and whether its manifest
    /// verifies; and the session directories that are gone, with every entry of their session
    /// (nil when the content hash of one shows it holds the directory whole).
    struct Capture {
        var entries: [(entry: String, original: String, files: [String: [UInt8]]?, verifies: Bool)] = []
        var vanished: [(directory: String, entries: [[String: [UInt8]]]?)] = []
        /// The session directories with a list before recovery that have none after it (gone or
        /// not), for `LiveSessionOracle`.
        var delisted: [String] = []
        /// The directories an interrupted repair was replacing before recovery (`Before.replacing`)
        /// that are not live after it, for `LiveSessionOracle`; empty when recovery failed.
        var unsettled: [String] = []
    }

    /// What the oracle notes before recovery: the session directories with a list
    /// (`session_metadata.pb`) of both sides, and the content hash (temporary and backup names
    /// left out) of every directory of the session stores, relative to the profile.
    struct Before {
        fileprivate(set) var sessions: [String] = []
        fileprivate(set) var hashes: [String: UInt64] = [:]
        /// The session directories an interrupted `sessionctl repair` was replacing, which the
        /// launch must settle as the command's next run would: those the repair's intent record
        /// (`RepairIntent`) names and those with a whole staged copy (its list there), absent.
        fileprivate(set) var replacing: [String] = []
        /// A hash of all of it (made by `before`, after which nothing changes).
        private(set) var digest: UInt64 = 0

        /// Computes `digest` from the rest.
        fileprivate mutating func seal() {
            var digest = UInt64(sessions.count)
            for session in sessions { digest = ContentHash.combine(digest, ContentHash.of(session)) }
            digest = ContentHash.combine(digest, UInt64(replacing.count))
            for directory in replacing { digest = ContentHash.combine(digest, ContentHash.of(directory)) }
            for (directory, hash) in hashes.sorted(by: { $0.key < $1.key }) {
                digest = ContentHash.combine(digest, ContentHash.combine(ContentHash.of(directory), hash))
            }
            self.digest = digest
        }
    }

    /// The session stores of both sides, relative to the profile: all that `before` reads.
    static let storeDirectories = [false, true].flatMap { incognito in
        [ProfileLayout.optimizedDirectory, ProfileLayout.legacyDirectory].map {
            joinPath(ProfileLayout.stateRoot(incognito: incognito), $0)
        }
    }

    /// Notes the session directories before recovery; with `hashing`, their content hashes too.
    static func before(_ tree: ModelTree, profile: String, hashing: Bool) -> Before {
        let fileSystem = ModelFileSystem(tree: tree)
        var before = Before()
        for storage in storeDirectories {
            let optimized = lastPathComponent(storage) == ProfileLayout.optimizedDirectory
            for name in (try? fileSystem.list(joinPath(profile, storage))) ?? [] where !name.hasPrefix(".") {
                let directory = joinPath(storage, name)
                if optimized, fileSystem.kind(of: joinPath(profile, directory, ProfileLayout.metadataFile)) == .file {
                    before.sessions.append(directory)
                }
                if hashing, let inode = fileSystem.resolve(joinPath(profile, directory)),
                    let hash = tree.contentHash(of: inode, leavingOutTransient: true)
                {
                    before.hashes[directory] = hash
                }
            }
        }
        before.replacing = replacing(fileSystem, profile: profile)
        before.seal()
        return before
    }

    /// The session directories an interrupted repair was replacing in the profile at `profile`
    /// (`Before.replacing`), sorted.
    private static func replacing(_ fileSystem: ModelFileSystem, profile: String) -> [String] {
        var found = Set(RepairIntent.read(AtomicWriter(fileSystem: fileSystem), profile: profile)?.directories ?? [])
        for storage in storeDirectories {
            for name in (try? fileSystem.list(joinPath(profile, storage))) ?? []
            where name.hasPrefix(InterruptedCommands.repairStagingPrefix) {
                let staged = joinPath(profile, storage, name)
                if [ProfileLayout.metadataFile, ProfileLayout.legacySessionFile].contains(where: {
                    fileSystem.kind(of: joinPath(staged, $0)) == .file
                }) {
                    found.insert(joinPath(storage, String(name.dropFirst(InterruptedCommands.repairStagingPrefix.count))))
                }
            }
        }
        return found.filter { fileSystem.kind(of: joinPath(profile, $0)) == nil }.sorted()
    }

    /// Reads the entries `outcome` names in the tree as recovery left it, and what became of the
    /// session directories `before` listed; `verifies` says whether an entry's manifest verifies.
    static func capture(
        _ tree: ModelTree, profile: String, outcome: RecoveryOutcome?, before: Before,
        verifies: (ModelFileSystem, String) -> Bool
    ) -> Capture {
        var capture = Capture()
        let fileSystem = ModelFileSystem(tree: tree)
        capture.delisted = before.sessions.filter {
            fileSystem.kind(of: joinPath(profile, $0, ProfileLayout.metadataFile)) != .file
        }
        if outcome != nil {
            capture.unsettled = before.replacing.filter { fileSystem.kind(of: joinPath(profile, $0)) != .directory }
        }
        for directory in before.sessions where fileSystem.kind(of: joinPath(profile, directory)) != .directory {
            let parts = pathComponents(directory)
            let id = parts.last ?? ""
            let backups = joinPath(
                profile, SessionSetAside.backupsDirectory(incognito: parts.first == ProfileLayout.incognitoDirectory), id)
            let stamps = (try? fileSystem.list(backups)) ?? []
            if let hash = before.hashes[directory],
                stamps.contains(where: { holdsWhole(tree, fileSystem, entry: joinPath(backups, $0), hash) })
            {
                capture.vanished.append((directory, nil))
            } else {
                capture.vanished.append((directory, stamps.map { files(fileSystem, joinPath(backups, $0)) }))
            }
        }
        guard let outcome, !outcome.setAside.isEmpty else { return capture }
        for (entry, original) in outcome.setAside.sorted(by: { $0.key < $1.key }) {
            let path = joinPath(profile, entry)
            let verified = verifies(fileSystem, path)
            if let hash = before.hashes[original], holdsWhole(tree, fileSystem, entry: path, hash) {
                capture.entries.append((entry, original, nil, verified))
                continue
            }
            var files = files(fileSystem, path)
            files[SessionSetAside.manifestFile] = nil
            capture.entries.append((entry, original, files, verified))
        }
        return capture
    }

    /// Whether the entry at `entry`, its manifest left out, has the content hash `hash` (temporary
    /// and backup names left out): it then holds every file of a directory of that hash, byte for byte.
    private static func holdsWhole(_ tree: ModelTree, _ fileSystem: ModelFileSystem, entry: String, _ hash: UInt64) -> Bool {
        guard let inode = fileSystem.resolve(entry), let manifest = tree.names.id(of: SessionSetAside.manifestFile) else { return false }
        return tree.contentHash(of: inode, leavingOutTransient: true, without: manifest) == hash
    }

    /// The findings: `capture` (after recovery) against the tree before recovery.
    static func check(_ capture: Capture, before tree: ModelTree, profile: String) -> [Finding] {
        guard !capture.entries.isEmpty || !capture.vanished.isEmpty else { return [] }
        let fileSystem = ModelFileSystem(tree: tree)
        var findings: [Finding] = []
        for case (let directory, let entries?) in capture.vanished {
            let original = files(fileSystem, joinPath(profile, directory))
            let kept = entries.contains { entry in original.allSatisfy { entry[$0.key] == $0.value } }
            if !kept {
                findings.append(
                    Finding(
                        .collateralLoss,
                        "recovery removed \(directory) without setting it aside whole: no entry in Backups/ holds its \(original.count) files"
                    ))
            }
        }
        for item in capture.entries {
            if !item.verifies {
                findings.append(
                    Finding(.collateralLoss, "recovery set aside \(item.original) as \(item.entry), whose manifest does not verify"))
            }
            guard let copied = item.files else { continue }
            let original = files(fileSystem, joinPath(profile, item.original))
            let missing = original.keys.filter { copied[$0] == nil }.sorted()
            let changed = original.keys.filter { copied[$0] != nil && copied[$0] != original[$0] }.sorted()
            if let first = missing.first ?? changed.first {
                findings.append(
                    Finding(
                        .collateralLoss,
                        "recovery set aside \(item.original) as \(item.entry), which lacks or changed \(missing.count + changed.count) of its \(original.count) files, e.g. \(first)"
                    ))
            }
        }
        return findings
    }

    /// Every regular file below `directory` but temporary and backup names, by relative path.
    private static func files(_ fileSystem: ModelFileSystem, _ directory: String) -> [String: [UInt8]] {
        let paths =
            FileListing.files(fileSystem, under: directory, strict: false) { name in
                !AtomicWriter.isTemporaryName(name) && !AtomicWriter.isBackupName(name)
            } ?? []
        var found: [String: [UInt8]] = [:]
        for path in paths { found[path] = try? fileSystem.read(joinPath(directory, path)) }
        return found
    }
}
