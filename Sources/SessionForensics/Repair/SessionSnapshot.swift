import FileSystemKit
import SessionFormats
import SessionModel
import SessionStore

/// One session directory as repair found it, read once before anything changes: the metadata
/// file's bytes, every tab-like directory with its data.pb and state.pb, and the names of
/// everything else. The repaired session is worked out from this alone.
struct SessionSnapshot: Sendable {
    /// A file that may be missing or unreadable.
    enum File: Sendable, Hashable {
        case missing
        case unreadable(String)
        case bytes([UInt8])

        var bytes: [UInt8]? {
            if case .bytes(let bytes) = self { return bytes }
            return nil
        }
    }

    /// A directory whose name is a tab id in hexadecimal, canonical (`0000000a`) or not (`0000000A`, `a`).
    struct TabDirectory: Sendable, Hashable {
        var name: String
        /// The id the name spells.
        var id: TabID
        var data: File
        /// state.pb: its size and its bytes.
        var stateSize: Int?
        var state: [UInt8]?
        /// Everything in the directory but data.pb and state.pb.
        var others: [String]

        /// True when the name is the one Chrome gives the directory of `id`.
        var isCanonical: Bool { Tab.directoryName(for: id) == name }
    }

    /// Another entry of the session directory: a stray or temporary file, or a directory that is not a tab's.
    struct OtherEntry: Sendable, Hashable {
        var name: String
        var isDirectory: Bool
    }

    var id: SessionID
    var incognito: Bool
    /// The session directory, relative to the tree's root (the profile).
    var path: String
    var metadata: File
    var tabDirectories: [TabDirectory]
    var others: [OtherEntry]

    /// True when the directory holds nothing at all.
    var isEmpty: Bool { metadata == .missing && tabDirectories.isEmpty && others.isEmpty }

    /// The id a directory name spells in hexadecimal (1 to 16 digits of either case), when it is a valid tab id.
    static func tabID(fromHexName name: String) -> TabID? {
        guard (1...16).contains(name.utf8.count),
            name.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) || (65...70).contains($0) }),
            let value = UInt64(name, radix: 16), value > 0, value <= UInt64(Int32.max)
        else { return nil }
        return TabID(value)
    }

    /// Reads the session directory `path` of `tree`.
    init(tree: ReadableTree, id: SessionID, incognito: Bool, path: String) {
        self.id = id
        self.incognito = incognito
        self.path = path
        metadata = SessionSnapshot.readFile(tree, joinPath(path, ProfileLayout.metadataFile))
        var tabDirectories: [TabDirectory] = []
        var others: [OtherEntry] = []
        for name in tree.list(path) where name != ProfileLayout.metadataFile {
            let entry = joinPath(path, name)
            let isDirectory = tree.kind(of: entry) == .directory
            guard isDirectory, let tab = SessionSnapshot.tabID(fromHexName: name) else {
                others.append(OtherEntry(name: name, isDirectory: isDirectory))
                continue
            }
            let children = tree.list(entry)
            let statePath = joinPath(entry, ProfileLayout.tabStateFile)
            let stateSize = children.contains(ProfileLayout.tabStateFile) ? tree.size(of: statePath) : nil
            var state: [UInt8]?
            // Read at any size, as Chrome reads it (the reader refuses what no real file is: over 1 GiB).
            if stateSize != nil { state = try? tree.read(statePath) }
            tabDirectories.append(
                TabDirectory(
                    name: name, id: tab,
                    data: children.contains(ProfileLayout.tabDataFile)
                        ? SessionSnapshot.readFile(tree, joinPath(entry, ProfileLayout.tabDataFile)) : .missing,
                    stateSize: stateSize, state: state,
                    others: children.filter { $0 != ProfileLayout.tabDataFile && $0 != ProfileLayout.tabStateFile }))
        }
        self.tabDirectories = tabDirectories
        self.others = others
    }

    /// An in-memory snapshot (for tests and for what repair writes).
    init(id: SessionID, incognito: Bool, path: String, metadata: File, tabDirectories: [TabDirectory], others: [OtherEntry]) {
        self.id = id
        self.incognito = incognito
        self.path = path
        self.metadata = metadata
        self.tabDirectories = tabDirectories
        self.others = others
    }

    private static func readFile(_ tree: ReadableTree, _ path: String) -> File {
        guard let kind = tree.kind(of: path) else { return .missing }
        guard kind == .file else { return .unreadable("not a regular file") }
        do {
            return .bytes(try tree.read(path))
        } catch {
            return .unreadable(error.description)
        }
    }
}
