import SessionModel

/// A web view's session state as WebKit codes it (`WKWebView.interactionState`), which Chrome for
/// iOS keeps as a tab's `state.pb` and Firefox for iOS as `tab-session-data/tab-<UUID>`: a 4-byte
/// big-endian version (2), then a binary property list whose `SessionHistory` holds the
/// back/forward list, oldest entry first (docs/chrome-ios-format.md, "A tab's web view state").
public struct WebKitSessionState: Sendable, Equatable {
    /// One back/forward list entry.
    public struct Entry: Sendable, Equatable {
        public var url: String
        public var title: String
        /// The URL first asked for, before any redirect.
        public var originalURL: String
        /// The entry's frame state (`SessionHistoryEntryData`: scroll positions, form contents,
        /// POST bodies), opaque here; nil when the entry has none.
        public var frameState: [UInt8]?

        public init(url: String, title: String, originalURL: String, frameState: [UInt8]? = nil) {
            self.url = url
            self.title = title
            self.originalURL = originalURL
            self.frameState = frameState
        }
    }

    /// The version WebKit writes and reads.
    public static let version: UInt32 = 2
    /// The back/forward list, oldest first.
    public var entries: [Entry]
    /// The index of the current entry (nil with no entries).
    public var currentIndex: Int?

    public init(entries: [Entry], currentIndex: Int?) {
        self.entries = entries
        self.currentIndex = currentIndex
    }

    /// Decodes the bytes of a session state, as strictly as WebKit does in what it checks here: the
    /// version, a property list that is a dictionary, a history of version 1 whose current index
    /// names an entry, and every entry with its URL, title and original URL (its frame state is
    /// kept opaque, not checked; kept only with `frameStates`). `file` names the file in the error
    /// (made only for one).
    public static func decode(
        _ bytes: consuming [UInt8], file: @autoclosure () -> String, frameStates: Bool = true
    ) throws(FormatError) -> WebKitSessionState {
        guard bytes.count >= 4 else { throw .damaged(file: file(), offset: bytes.count, reason: "too short for a WebKit session state") }
        let version = bytes[0..<4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard version == Self.version else {
            throw .damaged(file: file(), offset: 0, reason: "not a WebKit session state of version 2 (version \(version))")
        }
        let plist: BinaryPlist
        do throws(PlistDamage) {
            // The version dropped in place (no copy when the caller gives up its bytes).
            var list = consume bytes
            list.removeFirst(4)
            plist = try BinaryPlistReader.read(list)
            try plist.checkKeysAreStrings()
        } catch {
            throw .damaged(file: file(), offset: 4 + error.offset, reason: error.reason)
        }
        // Five keys are read: looked up in the parsed objects, with no value tree built.
        guard case .dictionary = plist[plist.topObject] else {
            throw .damaged(file: file(), offset: 4, reason: "the property list is not a dictionary")
        }
        // WebKit skips a missing history (or one that is not a dictionary): an empty list.
        guard let historyIndex = plist.member(of: plist.topObject, "SessionHistory"), case .dictionary = plist[historyIndex] else {
            return WebKitSessionState(entries: [], currentIndex: nil)
        }
        if let version = plist.member(of: historyIndex, "SessionHistoryVersion"), plist[version] != .integer(1) {
            throw .damaged(file: file(), offset: 4, reason: "session history of another version than 1")
        }
        // Without a current index WebKit reads an empty list; with one, the entries must be there
        // and the index must name one of them.
        guard let currentIndex = plist.member(of: historyIndex, "SessionHistoryCurrentIndex") else {
            return WebKitSessionState(entries: [], currentIndex: nil)
        }
        guard let listIndex = plist.member(of: historyIndex, "SessionHistoryEntries"), case .array(let list) = plist[listIndex] else {
            throw .damaged(file: file(), offset: 4, reason: "a current index without a list of entries")
        }
        var entries: [Entry] = []
        entries.reserveCapacity(list.count)
        for (index, entryIndex) in list.enumerated() {
            func string(_ key: String) -> String? {
                guard let member = plist.member(of: entryIndex, key), case .string(let text) = plist[member] else { return nil }
                return text
            }
            guard case .dictionary = plist[entryIndex], let url = string("SessionHistoryEntryURL"),
                let title = string("SessionHistoryEntryTitle"), let originalURL = string("SessionHistoryEntryOriginalURL")
            else {
                throw .damaged(file: file(), offset: 4, reason: "history entry \(index) lacks its URL, title or original URL")
            }
            var frameState: [UInt8]?
            if frameStates, let member = plist.member(of: entryIndex, "SessionHistoryEntryData"), case .data(let data) = plist[member] {
                frameState = Array(data)
            }
            entries.append(Entry(url: url, title: title, originalURL: originalURL, frameState: frameState))
        }
        guard case .integer(let current) = plist[currentIndex], current >= 0, current < Int64(entries.count) else {
            throw .damaged(file: file(), offset: 4, reason: "the current index names no entry of the \(entries.count)")
        }
        return WebKitSessionState(entries: entries, currentIndex: Int(current))
    }

    /// The back/forward list as a tab history: each entry an item with its URL and title, every
    /// item stamped `time` (the state keeps no times), the current entry the last committed item.
    public func history(time: Timestamp) -> TabHistory {
        TabHistory(
            userAgent: .automatic, lastCommittedIndex: Int32(clamping: currentIndex ?? -1),
            items: entries.map { NavigationItem(url: $0.url, title: $0.title, timestamp: time, userAgent: .automatic) })
    }
}
