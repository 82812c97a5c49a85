import FileSystemKit
import SessionModel

/// Finds the sessions in an input: a profile, a `SessionStorage` or `Sessions` directory, one
/// session directory, or one file. The kind is detected from layout and content, not trusted from names.
public enum InputLocator {
    /// Locates the sessions in a tree whose root is the input.
    ///
    /// - Parameters:
    ///   - tree: the input as a tree (its root is the directory, or the directory holding the file).
    ///   - file: when the input is a single file, its name within the tree.
    ///   - ancestry: names of the input's enclosing directories, innermost last (the input's own
    ///     name included for a directory), used to recognise `OTR/` and session ids.
    public static func locate(tree: ReadableTree, file: String? = nil, ancestry: [String]) throws(FormatError) -> LocatedInput {
        if let file {
            return try locateFile(tree: tree, file: file, ancestry: ancestry)
        }
        let name = ancestry.last ?? ""
        let names = Set(tree.list(""))
        let underOTR = ancestry.dropLast().last == ProfileLayout.incognitoDirectory
        if names.contains(ProfileLayout.optimizedDirectory) || names.contains(ProfileLayout.legacyDirectory)
            || names.contains(ProfileLayout.incognitoDirectory) || names.contains(ProfileLayout.backupsDirectory)
        {
            var sessions: [SessionSource] = []
            var shadowed: [SessionSource] = []
            var backups: [SessionSource] = []
            for incognito in [false, true] {
                let root = ProfileLayout.stateRoot(incognito: incognito)
                backups += chromeBackups(tree: tree, directory: joinPath(root, ProfileLayout.backupsDirectory), incognito: incognito)
                let optimized = optimizedSessions(
                    tree: tree, storage: joinPath(root, ProfileLayout.optimizedDirectory), incognito: incognito)
                let legacy = legacySessions(tree: tree, storage: joinPath(root, ProfileLayout.legacyDirectory), incognito: incognito)
                if tree.kind(of: joinPath(root, ProfileLayout.optimizedDirectory)) == .directory {
                    sessions += optimized
                    shadowed += legacy
                } else {
                    sessions += legacy
                }
            }
            // A desktop profile whose Sessions/ holds only SNSS files is no empty Chrome for iOS profile
            // (a Tabs_ file beside Chrome for iOS's own sessions stays ignored).
            if sessions.isEmpty && shadowed.isEmpty && backups.isEmpty,
                let foreign = ForeignSession.describeDirectory(
                    name: name, names: names, sessionsNames: Set(tree.list(ProfileLayout.legacyDirectory)))
            {
                throw .notASession(path: tree.displayName, reason: foreign)
            }
            return LocatedInput(tree: tree, kind: .profile, sessions: sessions, shadowedLegacySessions: shadowed, chromeBackups: backups)
        }
        if names.contains(ProfileLayout.metadataFile)
            || names.contains(where: { Tab.id(fromDirectoryName: $0) != nil && tree.kind(of: $0) == .directory })
        {
            let (id, incognito) = sessionIdentity(ancestry: ancestry)
            return LocatedInput(
                tree: tree, kind: .sessionDirectory,
                sessions: [
                    SessionSource(id: id, incognito: incognito, kind: .optimizedDirectory, path: "")
                ])
        }
        for file in [ProfileLayout.legacySessionFile, ProfileLayout.legacyBackupFile] where names.contains(file) {
            let (id, incognito) = sessionIdentity(ancestry: ancestry)
            return LocatedInput(
                tree: tree, kind: .sessionDirectory,
                sessions: [
                    SessionSource(id: id, incognito: incognito, kind: .legacyPlist, path: file)
                ])
        }
        if names.contains(ProfileLayout.legacyBackupFile) {
            let incognito = ancestry.dropLast(2).last == ProfileLayout.incognitoDirectory
            return LocatedInput(
                tree: tree, kind: .sessionDirectory,
                sessions: [
                    SessionSource(id: name, incognito: incognito, kind: .legacyPlist, path: ProfileLayout.legacyBackupFile)
                ])
        }
        let backups = chromeBackups(tree: tree, directory: "", incognito: underOTR)
        if !backups.isEmpty {
            return LocatedInput(tree: tree, kind: .storageDirectory, sessions: backups)
        }
        // A directory holding exactly one profile one level down (an unpacked bundle) is that profile.
        let profiles = names.sorted().filter { child in
            tree.kind(of: child) == .directory && isProfile(Set(tree.list(child)))
        }
        if profiles.count == 1, let child = profiles.first {
            var inside = try locate(tree: tree.subtree(child), ancestry: ancestry + [child])
            inside.profileFoundInside = child
            return inside
        }
        // A storage directory holding session.plist files and nothing of the optimized layout is a
        // `Sessions` directory, whatever it is called.
        let optimized = optimizedSessions(tree: tree, storage: "", incognito: underOTR)
        let legacy = legacySessions(tree: tree, storage: "", incognito: underOTR)
        let holdsOptimized = optimized.contains { source in
            tree.list(source.path).contains { $0 == ProfileLayout.metadataFile || Tab.id(fromDirectoryName: $0) != nil }
        }
        // Subdirectories alone do not make a storage directory (/etc has many): one of them must
        // hold a session's files, or the directory must be named SessionStorage.
        if (!optimized.isEmpty && holdsOptimized) || name == ProfileLayout.optimizedDirectory {
            return LocatedInput(tree: tree, kind: .storageDirectory, sessions: optimized)
        }
        if legacy.isEmpty, let foreign = ForeignSession.describeDirectory(name: name, names: names, sessionsNames: []) {
            throw .notASession(path: tree.displayName, reason: foreign)
        }
        if !legacy.isEmpty || name == ProfileLayout.legacyDirectory {
            return LocatedInput(tree: tree, kind: .storageDirectory, sessions: legacy)
        }
        let sessionsNames = tree.kind(of: ProfileLayout.legacyDirectory) == .directory ? Set(tree.list(ProfileLayout.legacyDirectory)) : []
        if let foreign = ForeignSession.describeDirectory(name: name, names: names, sessionsNames: sessionsNames) {
            throw .notASession(path: tree.displayName, reason: foreign)
        }
        throw .notASession(
            path: tree.displayName, reason: "not a profile, session directory or session file of any browser sessionctl reads")
    }

    /// True for the entries of a profile directory: one of the state directories Chrome keeps.
    package static func isProfile(_ names: Set<String>) -> Bool {
        ProfileLayout.stateDirectories.contains(where: names.contains)
    }

    private static func locateFile(tree: ReadableTree, file: String, ancestry: [String]) throws(FormatError) -> LocatedInput {
        let bytes = try tree.read(file)
        let (sessionName, incognito) = sessionIdentity(ancestry: ancestry)
        // A session.plist is recognised by its name too, so that a damaged one is still seen as one.
        let base = pathComponents(file).last ?? file
        let chromeName = base == ProfileLayout.legacySessionFile || base == ProfileLayout.legacyBackupFile
        if let foreign = ForeignSession.recognize(bytes, chromePlistName: chromeName) {
            throw .notASession(path: joinPath(tree.displayName, file), reason: foreign.description)
        }
        if bytes.starts(with: Array("bplist".utf8))
            || base == ProfileLayout.legacySessionFile || base == ProfileLayout.legacyBackupFile
        {
            let source = SessionSource(id: sessionName, incognito: incognito, kind: .legacyPlist, path: file)
            return LocatedInput(tree: tree, kind: .file, sessions: [source])
        }
        switch ProtoFileKind.detect(name: file, bytes: bytes) {
        case .sessionMetadata:
            let source = SessionSource(id: sessionName, incognito: incognito, kind: .optimizedDirectory, path: "", metadataFileName: file)
            return LocatedInput(tree: tree, kind: .file, sessions: [source])
        case .tabData:
            let (sessionID, tabIncognito) = sessionIdentity(ancestry: Array(ancestry.dropLast()))
            let source = SessionSource(id: sessionID, incognito: tabIncognito, kind: .tabDataFile, path: file)
            return LocatedInput(tree: tree, kind: .file, sessions: [source])
        case nil:
            throw .notASession(path: joinPath(tree.displayName, file), reason: "not a session_metadata.pb, data.pb or session.plist")
        }
    }

    /// The session id and incognito flag of a session directory, from the names enclosing it
    /// (innermost last, its own name included): `.../[OTR/]<storage>/<id>`, or a set-aside entry
    /// `.../[OTR/]Backups/<id>/<UTC stamp>`.
    static func sessionIdentity(ancestry: [String]) -> (id: SessionID, incognito: Bool) {
        let name = ancestry.last ?? ""
        let parents = ancestry.dropLast()
        if AsideStamp.isStamp(name), parents.dropLast().last == ProfileLayout.backupsDirectory, let id = parents.last {
            return (id, parents.dropLast(2).last == ProfileLayout.incognitoDirectory)
        }
        return (name, ancestry.dropLast(2).last == ProfileLayout.incognitoDirectory)
    }

    /// The optimized session directories directly under `storage`, sorted by id.
    static func optimizedSessions(tree: ReadableTree, storage: String, incognito: Bool) -> [SessionSource] {
        tree.list(storage).compactMap { name in
            let path = joinPath(storage, name)
            // `.sessionctl-…` directories are sessionctl's own work in progress, never a window.
            guard !name.hasPrefix(".sessionctl-"), tree.kind(of: path) == .directory else { return nil }
            return SessionSource(id: name, incognito: incognito, kind: .optimizedDirectory, path: path)
        }
    }

    /// The legacy `session.plist` files under `storage/<id>/`, sorted by id. Whatever is there by
    /// that name is a session, also a FIFO or a directory: reading it then says it is not a regular
    /// file, rather than the window going unseen.
    static func legacySessions(tree: ReadableTree, storage: String, incognito: Bool) -> [SessionSource] {
        tree.list(storage).compactMap { name in
            let path = joinPath(storage, name, ProfileLayout.legacySessionFile)
            guard !name.hasPrefix(".sessionctl-"), tree.kind(of: path) != nil else { return nil }
            return SessionSource(id: name, incognito: incognito, kind: .legacyPlist, path: path)
        }
    }
}

extension InputLocator {
    /// Chrome's own crash backups under a `Backups` directory: `<id>/session.backup.plist`, sorted
    /// by id; like a session.plist, one that is not a regular file is listed (and refused when read).
    static func chromeBackups(tree: ReadableTree, directory: String, incognito: Bool) -> [SessionSource] {
        tree.list(directory).compactMap { name in
            let path = joinPath(directory, name, ProfileLayout.legacyBackupFile)
            guard tree.kind(of: path) != nil else { return nil }
            return SessionSource(id: name, incognito: incognito, kind: .legacyPlist, path: path)
        }
    }
}

/// Which protobuf file of the optimized format some bytes are.
enum ProtoFileKind {
    case sessionMetadata
    case tabData

    /// Decides from the file name when it is one of Chrome's, else from the content.
    static func detect(name: String, bytes: [UInt8]) -> ProtoFileKind? {
        let base = pathComponents(name).last ?? name
        if base == ProfileLayout.metadataFile { return .sessionMetadata }
        if base == ProfileLayout.tabDataFile { return .tabData }
        let asList = WireScanner.scan(bytes, as: .webStateList).damage == nil
        let asTab = WireScanner.scan(bytes, as: .webState).damage == nil
        switch (asList, asTab) {
        case (true, false): return .sessionMetadata
        case (false, true): return .tabData
        case (true, true): return bytes.first == 0x0a || bytes.isEmpty ? .sessionMetadata : .tabData
        case (false, false): return nil
        }
    }
}
