import FileSystemKit
import SessionModel

/// One optimized session directory (`SessionStorage/<id>/`) read in one walk: session_metadata.pb
/// with what it decodes to, and, when the read went that deep, every other entry, each tab-like
/// directory with its data.pb decoded. Validation, repair and the readers all work from this.
public struct SessionDirectoryRead: Sendable {
    /// An entry of the session directory other than the metadata file.
    public struct Entry: Sendable {
        public var name: String
        /// What it is (nil: nothing, or not yet read).
        public var kind: FileKind?
        /// Its entries, sorted, when it is a directory.
        public var children: [String]
        /// The directory read as a tab's, when its name spells a valid tab id in hexadecimal.
        public var tab: TabDirectoryRead?

        /// True for a directory named as Chrome names a tab's (`%08x` of a valid id), whatever it holds.
        public var isTabDirectoryByName: Bool { kind == .directory && Tab.id(fromDirectoryName: name) != nil }

        public init(name: String, kind: FileKind?, children: [String], tab: TabDirectoryRead? = nil) {
            self.name = name
            self.kind = kind
            self.children = children
            self.tab = tab
        }
    }

    /// The list as decoded from session_metadata.pb.
    public enum List: Sendable {
        case decoded(Session)
        /// Damaged: the error, with the first bad byte, and what decodes before it.
        case damaged(FormatError, salvage: ChromeProtoCodec.Salvage<Session>)
    }

    public var id: SessionID
    public var incognito: Bool
    /// The session directory, relative to the tree's root.
    public var path: String
    /// The metadata file's name (another than session_metadata.pb only for a lone file given under another name).
    public var metadataFileName: String
    public var metadata: FileRead
    /// What the metadata file decodes to; nil when it could not be read.
    public var list: List?
    /// The other entries, sorted by name; empty when the read stopped at the list.
    public var entries: [Entry] {
        didSet {
            positions = SessionDirectoryRead.positions(of: entries)
            tabDirectories = entries.compactMap(\.tab)
        }
    }
    /// The tab-like directories, in name order (kept with `entries`: repair indexes it per tab).
    public private(set) var tabDirectories: [TabDirectoryRead]
    /// True when every entry of the directory was read (not only the listed tabs' directories).
    public var walked: Bool
    /// Where each entry is in `entries`, by name.
    private var positions: [String: Int]

    public init(
        id: SessionID, incognito: Bool, path: String, metadataFileName: String = ProfileLayout.metadataFile,
        metadata: FileRead, list: List? = nil, entries: [Entry], walked: Bool = true
    ) {
        self.id = id
        self.incognito = incognito
        self.path = path
        self.metadataFileName = metadataFileName
        self.metadata = metadata
        self.list = list ?? metadata.bytes.map { SessionDirectoryRead.decodeList($0, id: id, incognito: incognito, file: metadataFileName) }
        self.entries = entries
        self.walked = walked
        positions = SessionDirectoryRead.positions(of: entries)
        tabDirectories = entries.compactMap(\.tab)
    }

    /// A session directory made in memory from its tab directories and other entries.
    public init(
        id: SessionID, incognito: Bool, path: String, metadata: FileRead, tabDirectories: [TabDirectoryRead], others: [Entry]
    ) {
        let tabs = tabDirectories.map { Entry(name: $0.name, kind: .directory, children: [], tab: $0) }
        let entries = (tabs + others).sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        self.init(id: id, incognito: incognito, path: path, metadata: metadata, entries: entries)
    }

    /// The path of the metadata file.
    public var metadataPath: String { joinPath(path, metadataFileName) }

    /// The decoded list, when the metadata file decodes.
    public var session: Session? {
        if case .decoded(let session) = list { return session }
        return nil
    }

    /// Everything but the metadata file and the tab-like directories.
    public var others: [Entry] { entries.filter { $0.tab == nil } }

    /// True when the directory holds nothing at all.
    public var isEmpty: Bool { metadata == .missing && entries.isEmpty }

    /// The entry named `name`.
    public func entry(named name: String) -> Entry? {
        positions[name].map { entries[$0] }
    }

    /// session_metadata.pb's bytes decoded, or salvaged up to the damage; errors name it `file`.
    public static func decodeList(_ bytes: [UInt8], id: SessionID, incognito: Bool, file: String) -> List {
        do throws(FormatError) {
            return .decoded(try ChromeProtoCodec.decodeSessionMetadata(bytes, id: id, incognito: incognito, file: file))
        } catch {
            return .damaged(error, salvage: ChromeProtoCodec.salvageSessionMetadata(bytes, id: id, incognito: incognito))
        }
    }

    private static func positions(of entries: [Entry]) -> [String: Int] {
        Dictionary(entries.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
    }
}
