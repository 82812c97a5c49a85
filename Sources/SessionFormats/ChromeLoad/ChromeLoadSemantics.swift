import FileSystemKit
import SessionModel

/// What Chrome for iOS does with one session directory when it loads it (docs/chrome-ios-format.md,
/// how Chrome loads), as a pure function: which tabs it restores, which it drops, what it adjusts,
/// and which entries of the directory it would delete.
///
/// Nothing here touches a file: the caller reads `session_metadata.pb` and lists the directory.
/// The session store restores exactly what this predicts; the validator and the crash simulator's
/// "no collateral loss" oracle use it to tell what Chrome would lose.
public enum ChromeLoadSemantics {
    /// One entry of a session directory (`SessionStorage/<SessionID>/`) as listed on disk.
    public struct DirectoryEntry: Sendable, Hashable {
        /// The entry's name inside the session directory.
        public var name: String
        /// True when the entry is a directory.
        public var isDirectory: Bool
        /// Names of the entries inside it, when it is a directory (a tab directory: data.pb, state.pb).
        public var children: [String]

        public init(name: String, isDirectory: Bool, children: [String] = []) {
            self.name = name
            self.isDirectory = isDirectory
            self.children = children
        }
    }

    /// Why Chrome loads a whole session as an empty window.
    public enum SessionLoss: Sendable, Hashable, CustomStringConvertible {
        /// session_metadata.pb is missing or cannot be read.
        case metadataMissing
        /// session_metadata.pb does not parse; `offset` is the first bad byte.
        case metadataUnparsable(offset: Int, reason: String)
        /// An item has an identifier that is not a positive int32.
        case invalidTabID(index: Int, id: TabID)

        public var description: String {
            switch self {
            case .metadataMissing: return "session_metadata.pb is missing"
            case .metadataUnparsable(let offset, let reason): return "session_metadata.pb is damaged at byte \(offset): \(reason)"
            case .invalidTabID(let index, let id): return "item \(index) has the invalid tab id \(id)"
            }
        }
    }

    /// Why Chrome drops one tab of a session it otherwise loads.
    public enum DropReason: String, Sendable, Hashable {
        /// The item says it has no navigation items.
        case noNavigationItems
        /// An earlier item has the same id (the first one is kept).
        case duplicateID
    }

    /// A tab of the stored list that Chrome does not restore.
    public struct DroppedTab: Sendable, Hashable {
        /// Index of the item in the stored list (kept in 32 bits: lists of millions of tabs).
        public var index: Int {
            get { Int(storedIndex) }
            set { storedIndex = Int32(clamping: newValue) }
        }
        public var id: TabID
        public var reason: DropReason
        private var storedIndex: Int32

        public init(index: Int, id: TabID, reason: DropReason) {
            storedIndex = Int32(clamping: index)
            self.id = id
            self.reason = reason
        }
    }

    /// A silent change Chrome makes to what is stored while restoring it.
    public enum Adjustment: Sendable, Hashable {
        /// The active index pointed at a dropped tab or out of the list.
        case activeIndexChanged(from: Int32, to: Int32)
        /// The pinned count was out of range or counted dropped tabs.
        case pinnedCountChanged(from: Int32, to: Int32)
        /// The opener of a restored tab pointed at a dropped tab or out of the list.
        case openerCleared(tab: TabID, storedIndex: Int32)
        /// A group's range lost dropped tabs.
        case groupRangeChanged(group: Int, from: RangeValue, to: RangeValue)
        /// A group is skipped (its range is invalid, empty after filtering, or its id repeats).
        case groupRemoved(group: Int, reason: String)
        /// A group's id is all zero: Chrome gives it a fresh one.
        case groupIDRegenerated(group: Int)
        /// A group's colour is outside 0-8: Chrome shows it grey.
        case groupColorDefaulted(group: Int, stored: Int32)
    }

    /// A `RangeIndex` (start, count).
    public struct RangeValue: Sendable, Hashable {
        public var start: Int32
        public var count: Int32
        public init(start: Int32, count: Int32) {
            self.start = start
            self.count = count
        }
    }

    /// The result of loading one session directory with Chrome's semantics.
    public struct Outcome: Sendable {
        /// The window as Chrome restores it (tabs unrealized: no histories); nil when the whole
        /// session is lost and the window loads empty.
        public var session: Session?
        /// Why the session is lost, when it is.
        public var loss: SessionLoss?
        /// Tabs of the stored list that are not restored.
        public var droppedTabs: [DroppedTab]
        /// Silent changes made while restoring.
        public var adjustments: [Adjustment]
        /// Restored tabs whose directory or data.pb is missing. Chrome M145 and later restore them
        /// and rebuild a one-page history from the listed URL when they are realized; Chrome M122
        /// to M144 load the whole window empty instead (see `MissingTabData`). This model follows
        /// current Chrome.
        public var tabsWithoutData: [TabID]
        /// Names in the session directory that Chrome would delete on this load (stray files, temp
        /// files, directories of dropped or unknown tabs). Chrome lists the session directory
        /// only: files inside a kept tab directory are never deleted. Nothing is deleted here.
        public var deletedEntries: [String]
        /// The highest tab id restored (0 when none): Chrome allocates new ids above it.
        public var highestTabID: TabID

        /// True when every stored tab is restored as stored and nothing would be deleted.
        public var isLossless: Bool {
            loss == nil && droppedTabs.isEmpty && tabsWithoutData.isEmpty && deletedEntries.isEmpty
        }
    }

    /// What Chrome does with a window one of whose restored tabs has no data.pb, by version.
    public enum MissingTabData: String, Sendable, Hashable {
        /// Chrome M122 to M144: the whole window loads empty and every tab directory is deleted.
        case windowLoadsEmpty
        /// Chrome M145 and later: the tab is kept; once realized it gets a one-page history built
        /// from its listed URL (blank when that URL is not valid).
        case tabRebuiltFromURL

        /// Which Chrome versions behave so, for messages.
        public var versions: String {
            switch self {
            case .windowLoadsEmpty: return "Chrome M122-M144"
            case .tabRebuiltFromURL: return "Chrome M145 and later"
            }
        }
    }

    /// Loads a session directory as Chrome would.
    ///
    /// - Parameters:
    ///   - metadata: the bytes of session_metadata.pb, or nil when it is missing or unreadable.
    ///   - entries: the entries of the session directory (session_metadata.pb among them or not).
    ///   - id: the session id (the directory's name).
    ///   - incognito: whether the directory is under `OTR/`.
    public static func load(metadata: [UInt8]?, entries: [DirectoryEntry], id: SessionID, incognito: Bool) -> Outcome {
        guard let metadata else {
            return lost(.metadataMissing, entries: entries)
        }
        let stored: Session
        do {
            stored = try ChromeProtoCodec.decodeSessionMetadata(metadata, id: id, incognito: incognito)
        } catch {
            if case .damaged(_, let offset, let reason) = error {
                return lost(.metadataUnparsable(offset: offset, reason: reason), entries: entries)
            }
            return lost(.metadataUnparsable(offset: 0, reason: error.description), entries: entries)
        }
        return load(stored: stored, entries: entries)
    }

    /// Loads an already decoded session_metadata.pb as Chrome would, given the directory's entries.
    public static func load(stored: Session, entries: [DirectoryEntry]) -> Outcome {
        if let bad = stored.tabs.indices.first(where: { stored.tabs[$0].id <= 0 }) {
            return lost(.invalidTabID(index: bad, id: stored.tabs[bad].id), entries: entries)
        }
        let restored = restore(stored)
        let byName = Dictionary(entries.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var keep: Set<String> = [ProfileLayout.metadataFile]
        var withoutData: [TabID] = []
        var deleted: [String] = []
        for tab in restored.session.tabs {
            let name = Tab.directoryName(for: tab.id)
            guard let entry = byName[name], entry.isDirectory else {
                withoutData.append(tab.id)
                continue
            }
            keep.insert(name)
            if !entry.children.contains(ProfileLayout.tabDataFile) { withoutData.append(tab.id) }
            // Chrome lists the session directory alone: what else a kept tab directory holds stays.
        }
        for entry in entries where !keep.contains(entry.name) { deleted.append(entry.name) }
        return Outcome(
            session: restored.session, loss: nil, droppedTabs: restored.dropped,
            adjustments: restored.adjustments, tabsWithoutData: withoutData,
            deletedEntries: sortedByBytes(deleted),
            highestTabID: restored.session.tabs.map(\.id).max() ?? 0
        )
    }

    /// The outcome for a session Chrome cannot load: an empty window, every entry but the metadata file deleted.
    private static func lost(_ loss: SessionLoss, entries: [DirectoryEntry]) -> Outcome {
        let deleted = sortedByBytes(entries.map(\.name).filter { $0 != ProfileLayout.metadataFile })
        return Outcome(
            session: nil, loss: loss, droppedTabs: [], adjustments: [], tabsWithoutData: [],
            deletedEntries: deleted, highestTabID: 0)
    }
}
