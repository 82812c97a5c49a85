import FileSystemKit
import SessionFormats
import SessionModel
import SessionStore

/// What a tree holds under a profile directory, gathered in one walk: the live sessions with their
/// metadata and tab data, every reachable file, and leftover temporary entries.
///
/// Paths are identified by keys (chained hashes of their names from the profile down), so that the
/// same path has the same key in every state without building strings; strings are built only
/// for reports (`ProfileScan.path(of:in:)`).
struct ProfileScan {
    /// A tab directory of a session directory.
    struct TabEntry {
        var id: TabID
        var name: Int32
        var dataKey: UInt64
        var data: Blob?
    }

    /// A live session directory (`[OTR/]SessionStorage/<id>/`).
    struct SessionEntry {
        var incognito: Bool
        var name: Int32
        var directory: Int32
        var metadataKey: UInt64
        /// Key of the session directory itself.
        var directoryKey: UInt64 = 0
        var metadata: Blob?
        /// Directories that are tab directories, sorted by name id.
        var tabs: [TabEntry]
        /// A hash of the directory's listing (names, kinds, children): with the metadata's hash it
        /// determines what Chrome's loader does.
        var shape: UInt64
    }

    /// A session set aside (`[OTR/]Backups/<id>/<stamp>/`).
    struct BackupEntry {
        var incognito: Bool
        var session: Int32
        var metadata: Blob?
        /// The entry scanned as the live session directory it was set aside from (its keys are
        /// that directory's, so its tabs' data compare with the versions the live place held);
        /// nil when the tree's names never held the live storage directory's.
        var contents: SessionEntry?
    }

    /// Key of the profile directory itself.
    static let profileKey: UInt64 = 0x7072_6F66_696C_6521

    var sessions: [SessionEntry] = []
    var backups: [BackupEntry] = []
    /// Every reachable file under the profile (when collected), with its key.
    var files: [(key: UInt64, blob: Blob)] = []
    /// Keys of entries whose name is a temporary file's.
    var temporaryEntries: [UInt64] = []
    /// Keys of entries that are neither part of Chrome's layout, nor a file the store documents
    /// (its recovery marker), nor inside Backups/, whatever their names (temporary ones aside).
    var strayEntries: [UInt64] = []
    /// False when the profile directory itself is missing.
    var profileExists = true

    /// Key of a child path.
    @inline(__always)
    static func key(_ parent: UInt64, _ name: Int32, _ names: NameTable) -> UInt64 {
        ContentHash.combine(parent, names.hash(name))
    }

    /// Walks `tree` below `profile` (an inode); `collectFiles` also lists every reachable file.
    init(tree: ModelTree, profile: Int32?, names: ProfileNames, collectFiles: Bool) {
        guard let profile, let root = tree.node(profile), root.isDirectory else {
            profileExists = false
            return
        }
        let table = tree.names
        walk(tree, directory: profile, key: ProfileScan.profileKey, place: .profile, collectFiles: collectFiles)
        for incognito in [false, true] {
            var side = profile
            var sideKey = ProfileScan.profileKey
            if incognito {
                guard let otr = names.incognito, let inode = tree.lookup(profile, otr), tree.node(inode)?.isDirectory == true else {
                    continue
                }
                side = inode
                sideKey = ProfileScan.key(sideKey, otr, table)
            }
            let storageKey = names.storage.map { ProfileScan.key(sideKey, $0, table) }
            if let backupsName = names.backups, let backupsInode = tree.lookup(side, backupsName),
                let backupsNode = tree.node(backupsInode), backupsNode.isDirectory
            {
                for (session, sessionInode) in backupsNode.entries {
                    guard let sessionNode = tree.node(sessionInode), sessionNode.isDirectory else { continue }
                    for (entryName, entryInode) in sessionNode.entries where !AtomicWriter.isTemporaryName(table.name(entryName)) {
                        guard let entryNode = tree.node(entryInode), entryNode.isDirectory else { continue }
                        var metadata: Blob?
                        if let metadataName = names.metadata, let file = entryNode.entries[metadataName], let fileNode = tree.node(file),
                            !fileNode.isDirectory
                        {
                            metadata = fileNode.blob
                        }
                        let contents = storageKey.map { key in
                            scanSession(
                                tree, name: session, inode: entryInode, node: entryNode, key: ProfileScan.key(key, session, table),
                                incognito: incognito, names: names)
                        }
                        backups.append(BackupEntry(incognito: incognito, session: session, metadata: metadata, contents: contents))
                    }
                }
            }
            guard let storageName = names.storage, let storageKey, let storage = tree.lookup(side, storageName),
                let storageNode = tree.node(storage), storageNode.isDirectory
            else { continue }
            for (name, inode) in storageNode.entries {
                guard let node = tree.node(inode), node.isDirectory else { continue }
                sessions.append(
                    scanSession(
                        tree, name: name, inode: inode, node: node, key: ProfileScan.key(storageKey, name, table),
                        incognito: incognito, names: names))
            }
        }
        sessions.sort { ($0.incognito ? 1 : 0, $0.name) < ($1.incognito ? 1 : 0, $1.name) }
    }

    /// Key of the data.pb a tab of `session` has or would have (nil when no state ever used the
    /// names of that path, so that it never existed).
    static func dataKey(of tab: TabID, in session: SessionEntry, _ names: NameTable) -> UInt64? {
        guard let directory = names.id(of: Tab.directoryName(for: tab)), let data = names.id(of: ProfileLayout.tabDataFile) else {
            return nil
        }
        return key(key(session.directoryKey, directory, names), data, names)
    }

    /// The identity of a session (side and id), the same in every state.
    static func sessionIdentity(incognito: Bool, name: Int32, _ names: NameTable) -> UInt64 {
        ContentHash.combine(incognito ? 0x6F74_72 : 0x7265_67, names.hash(name))
    }

    /// Each session identity present (live or set aside): its live list's hash (nil: none) and,
    /// for each entry holding a list, that list's hash and the index of the entry in `backups`.
    func sessionContents(_ names: NameTable) -> [UInt64: (live: UInt64?, aside: [(list: UInt64, entry: Int)])] {
        var result: [UInt64: (live: UInt64?, aside: [(list: UInt64, entry: Int)])] = [:]
        for session in sessions {
            let identity = ProfileScan.sessionIdentity(incognito: session.incognito, name: session.name, names)
            result[identity, default: (nil, [])].live = session.metadata?.hash
        }
        for (index, backup) in backups.enumerated() {
            guard let metadata = backup.metadata else { continue }
            result[ProfileScan.sessionIdentity(incognito: backup.incognito, name: backup.session, names), default: (nil, [])]
                .aside.append((metadata.hash, index))
        }
        return result
    }

    private func scanSession(
        _ tree: ModelTree, name: Int32, inode: Int32, node: ModelTree.Node, key: UInt64,
        incognito: Bool, names: ProfileNames
    ) -> SessionEntry {
        let table = tree.names
        var entry = SessionEntry(incognito: incognito, name: name, directory: inode, metadataKey: 0, metadata: nil, tabs: [], shape: 0)
        entry.directoryKey = key
        if let metadataName = names.metadata {
            entry.metadataKey = ProfileScan.key(key, metadataName, table)
            if let file = tree.lookup(inode, metadataName), let fileNode = tree.node(file), !fileNode.isDirectory {
                entry.metadata = fileNode.blob
            }
        } else {
            entry.metadataKey = ContentHash.combine(key, ContentHash.of(ProfileLayout.metadataFile, seed: 0x6E61_6D65))
        }
        var shape: UInt64 = 0
        for (childName, child) in node.entries {
            guard let childNode = tree.node(child) else { continue }
            var term = ContentHash.combine(table.hash(childName), childNode.isDirectory ? 1 : 2)
            if childNode.isDirectory {
                for (grandchild, grandchildInode) in childNode.entries {
                    term &+= ContentHash.combine(table.hash(grandchild), tree.node(grandchildInode)?.isDirectory == true ? 3 : 4)
                }
                if let id = Tab.id(fromDirectoryName: table.name(childName)) {
                    let tabKey = ProfileScan.key(key, childName, table)
                    var data: Blob?
                    var dataKey = tabKey
                    if let dataName = names.data {
                        dataKey = ProfileScan.key(tabKey, dataName, table)
                        if let file = childNode.entries[dataName], let fileNode = tree.node(file), !fileNode.isDirectory {
                            data = fileNode.blob
                        }
                    }
                    entry.tabs.append(TabEntry(id: id, name: childName, dataKey: dataKey, data: data))
                }
            }
            shape &+= ContentHash.combine(term, 0x7368_6170)
        }
        entry.tabs.sort { $0.id < $1.id }
        entry.shape = shape
        return entry
    }

    private mutating func walk(_ tree: ModelTree, directory: Int32, key: UInt64, place: LayoutPlace, collectFiles: Bool) {
        guard let node = tree.node(directory) else { return }
        for (name, inode) in node.entries {
            let childKey = ProfileScan.key(key, name, tree.names)
            let text = tree.names.name(name)
            guard let child = tree.node(inode) else { continue }
            let childPlace = place.child(text, isDirectory: child.isDirectory)
            if AtomicWriter.isTemporaryName(text) || AtomicWriter.isBackupName(text) {
                temporaryEntries.append(childKey)
            } else if childPlace == nil {
                strayEntries.append(childKey)
            }
            if child.isDirectory {
                walk(tree, directory: inode, key: childKey, place: childPlace ?? .unchecked, collectFiles: collectFiles)
            } else if collectFiles {
                files.append((childKey, child.blob))
            }
        }
    }

    /// The path (relative to the profile) whose key is `key`, found by walking `tree`; nil when absent.
    static func path(of key: UInt64, in tree: ModelTree, profile: Int32?) -> String? {
        guard let profile else { return nil }
        func search(_ directory: Int32, _ directoryKey: UInt64, _ prefix: String) -> String? {
            guard let node = tree.node(directory) else { return nil }
            for (name, inode) in node.entries {
                let childKey = ProfileScan.key(directoryKey, name, tree.names)
                let path = joinPath(prefix, tree.names.name(name))
                if childKey == key { return path }
                if tree.node(inode)?.isDirectory == true, let found = search(inode, childKey, path) { return found }
            }
            return nil
        }
        return search(profile, profileKey, "")
    }
}

/// The interned ids of the names a profile scan looks for (nil when never used in the tree).
struct ProfileNames {
    var incognito: Int32?
    var storage: Int32?
    var metadata: Int32?
    var data: Int32?
    var backups: Int32?

    init(_ names: NameTable) {
        backups = names.id(of: ProfileLayout.backupsDirectory)
        incognito = names.id(of: ProfileLayout.incognitoDirectory)
        storage = names.id(of: ProfileLayout.optimizedDirectory)
        metadata = names.id(of: ProfileLayout.metadataFile)
        data = names.id(of: ProfileLayout.tabDataFile)
    }
}

/// Where an entry lies in Chrome's layout of a profile (docs/chrome-ios-format.md, where sessions
/// live), for the hygiene oracle: what may stand in each place is decided by the layout, not by the
/// store.
enum LayoutPlace: Equatable {
    case profile, side, storage, session, tab, legacyStorage, legacySession, webSessions, backups
    /// An allowed file, or anything below an entry already reported: nothing is checked there.
    case unchecked

    /// The place of a child named `name`, or nil when nothing of that kind belongs there.
    func child(_ name: String, isDirectory: Bool) -> LayoutPlace? {
        switch self {
        case .profile, .side:
            if isDirectory {
                switch name {
                case ProfileLayout.optimizedDirectory: return .storage
                case ProfileLayout.legacyDirectory: return .legacyStorage
                case ProfileLayout.legacyWebSessionsDirectory: return .webSessions
                case ProfileLayout.backupsDirectory: return .backups
                case ProfileLayout.incognitoDirectory where self == .profile: return .side
                default: return nil
                }
            }
            return self == .profile && name == RecoveryMarker.fileName ? .unchecked : nil
        case .storage:
            return isDirectory ? .session : nil
        case .session:
            if isDirectory { return Tab.id(fromDirectoryName: name) != nil ? .tab : nil }
            return name == ProfileLayout.metadataFile ? .unchecked : nil
        case .tab:
            return !isDirectory && (name == ProfileLayout.tabDataFile || name == ProfileLayout.tabStateFile) ? .unchecked : nil
        case .legacyStorage:
            return isDirectory ? .legacySession : nil
        case .legacySession:
            return !isDirectory && name == ProfileLayout.legacySessionFile ? .unchecked : nil
        case .webSessions:
            return isDirectory ? nil : .unchecked
        case .backups:
            return .backups
        case .unchecked:
            // Below an entry already reported, nothing more is reported.
            return .unchecked
        }
    }
}
