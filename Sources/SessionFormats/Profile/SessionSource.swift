import FileSystemKit
import SessionModel

/// Where one session (window) of an input lives, as found by `InputLocator`.
public struct SessionSource: Sendable, Hashable {
    /// What the input holds for this session.
    public enum Kind: Sendable, Hashable {
        /// `SessionStorage/<id>/`: `path` is the session directory.
        case optimizedDirectory
        /// A lone `data.pb` given directly: `path` is the file.
        case tabDataFile
        /// `Sessions/<id>/session.plist` or a backup plist: `path` is the file.
        case legacyPlist
        /// A session file of another family, of `format`, that the family reads itself
        /// (`BrowserFamily.readFile`): `path` is that file. Firefox for iOS's
        /// `window-data/window-<UUID>` (which may be missing when only its backup is left) and
        /// legacy `tabsState.archive`, one of Firefox desktop's session files, one of Chromium
        /// desktop's (`Sessions/Session_<time>`, `Tabs_<time>`, a legacy `Current Session`).
        case file(SessionFormat)
    }

    public var id: SessionID
    public var incognito: Bool
    public var kind: Kind
    /// Path within the tree (see `kind`).
    public var path: String

    /// Name of the metadata file inside an optimized session directory (another name only for a lone file).
    public var metadataFileName: String
    /// For a Firefox for iOS window: the profile directory holding `window-data/` (its backup and
    /// its tabs' session states are read from there), when the input reaches it; for a Firefox
    /// desktop session file, the profile directory it belongs to, when the input reaches it.
    public var firefoxProfile: String?
    /// The browser of the family that wrote the session (`BrowserProduct.name`), when the
    /// input's place or settings say: its family reads the session in that browser's way.
    public var productName: String?

    public init(id: SessionID, incognito: Bool, kind: Kind, path: String, metadataFileName: String = ProfileLayout.metadataFile) {
        self.metadataFileName = metadataFileName
        self.id = id
        self.incognito = incognito
        self.kind = kind
        self.path = path
    }

    /// The on-disk format of the session.
    public var format: SessionFormat {
        switch kind {
        case .optimizedDirectory, .tabDataFile: .optimized
        case .legacyPlist: .legacy
        case .file(let format): format
        }
    }

    /// Path of session_metadata.pb for an optimized session directory.
    public var metadataPath: String { joinPath(path, metadataFileName) }
}

/// What an input path turned out to be: the tree to read from and the sessions in it.
public struct LocatedInput: Sendable {
    public enum Kind: Sendable, Equatable {
        case profile
        case storageDirectory
        case sessionDirectory
        case file
    }

    /// The tree the sessions are read from.
    public var tree: ReadableTree
    public var kind: Kind
    /// The sessions the browser would load (Chrome: regular first, then incognito, each sorted by
    /// id; Firefox for iOS: its windows by UUID, then windows left only in the backup directory).
    public var sessions: [SessionSource]
    /// Legacy sessions that Chrome would ignore because `SessionStorage/` exists beside them.
    public var shadowedLegacySessions: [SessionSource]
    /// Sessions Chrome's legacy crash helper set aside in a profile (`Backups/<id>/session.backup.plist`),
    /// not live; listed only when the input is a profile.
    /// Whether the input was read from a compressed bundle (gzip, `.tar.gz`) rather than from disk.
    public var isBundle: Bool { tree.fileSystem is ArchiveTree }
    public var chromeBackups: [SessionSource]
    /// The browser family that recognised the input (`BrowserFamilies.locate` sets it).
    public var family: any BrowserFamily = UnrecognisedFamily()
    /// The name of that family (`BrowserFamily.name`), as documents carry it in `browser`.
    public var browser: String { family.name }
    /// When the input was a directory holding one profile one level down (an unpacked bundle):
    /// that profile's name, which is what was read.
    public var profileFoundInside: String?
    /// What the family that located the input read of the profile's own settings beside its
    /// sessions (Firefox desktop's prefs.js, say), which its own code reads back.
    public var familySettings: (any Sendable)?
    /// The browser of the family that wrote the input, and what says so, when its place or its
    /// settings do (a family that tells its browsers apart sets it); each session carries its name.
    public var placedProduct: BrowserProduct? {
        didSet {
            for index in sessions.indices { sessions[index].productName = placedProduct?.name }
        }
    }

    public init(
        tree: ReadableTree, kind: Kind, sessions: [SessionSource], shadowedLegacySessions: [SessionSource] = [],
        chromeBackups: [SessionSource] = []
    ) {
        self.tree = tree
        self.kind = kind
        self.sessions = sessions
        self.shadowedLegacySessions = shadowedLegacySessions
        self.chromeBackups = chromeBackups
    }
}
