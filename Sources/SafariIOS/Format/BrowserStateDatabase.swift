import FileSystemKit
import SessionFormats

/// What Safari for iOS's `BrowserState.db` holds, as SQLite reads it from a private copy of the
/// database with its WAL (docs/safari-ios-format.md): the windows (open and recently closed),
/// every tab with its stored session state, and what Safari checks when it opens the file.
public struct BrowserStateDatabase: Sendable {
    /// One row of `browser_windows`.
    public struct Window: Sendable, Equatable {
        public var id: Int64?
        public var uuid: String
        /// 0: open; 2: recently closed.
        public var type: Int64
        /// The selected tab among the window's regular tabs, and among its private ones.
        public var activeDocumentIndex: Int64?
        public var activePrivateDocumentIndex: Int64?
        public var profile: String?

        /// Whether the window is open (not recently closed).
        public var isOpen: Bool { type == 0 }
    }

    /// One row of `tabs`, with its `tab_sessions` row.
    public struct Tab: Sendable, Equatable {
        public var uuid: String
        public var title: String
        public var url: String
        public var userVisibleURL: String?
        public var orderIndex: Int64
        /// `last_viewed_time` as stored (see `SafariTime`).
        public var lastViewedTime: Double?
        public var isPrivate: Bool
        public var windowUUID: String?
        public var windowID: Int64?
        public var groupUUID: String?
        public var profileUUID: String?
        /// The stored session state and the size the row gives for it raw (nil: no state stored).
        public var sessionData: [UInt8]?
        public var uncompressedSize: Int?
    }

    /// `PRAGMA user_version`.
    public var userVersion: Int64
    /// The first line of `PRAGMA integrity_check(1)`: `ok` for a sound file.
    public var integrity: String
    public var windows: [Window]
    /// Every tab, in the database's order of windows then `order_index`.
    public var tabs: [Tab]

    /// Whether Safari keeps the file: its integrity check says `ok`.
    public var opensInSafari: Bool { integrity == "ok" }

    /// Reads the database `file` of `tree` through SQLite, on a private copy of it and of its
    /// `-wal` and `-shm`; throws why SQLite refuses it.
    public static func read(_ file: String, tree: ReadableTree) throws(BrowserStateRefusal) -> BrowserStateDatabase {
        try read(PrivateDatabaseCopy.Files.read(file, tree: tree), name: lastPathComponent(file))
    }

    /// Reads the database whose bytes (and companions') are `files` through SQLite, on a
    /// private copy named `name`; throws why SQLite refuses it.
    static func read(_ files: PrivateDatabaseCopy.Files, name: String) throws(BrowserStateRefusal) -> BrowserStateDatabase {
        let copy = try PrivateDatabaseCopy(files, name: name)
        // The copy's files stay until SQLite is done with them (it opens the WAL when it first reads).
        defer { withExtendedLifetime(copy) {} }
        do throws(SQLiteDatabase.Failure) {
            let database = try SQLiteDatabase(path: copy.path)
            let integrity = try database.rows("PRAGMA integrity_check(1)").first?.values.first?.text ?? "no answer"
            let version = try database.rows("PRAGMA user_version").first?["user_version"]?.integer ?? 0
            guard try database.hasTable("tabs") else { throw SQLiteDatabase.Failure(code: 0, message: "it has no tabs table") }
            let windows = try database.hasTable("browser_windows") ? try database.rows("SELECT * FROM browser_windows").map(window) : []
            var sessions: [String: (data: [UInt8]?, size: Int?)] = [:]
            if try database.hasTable("tab_sessions") {
                // Every column, looked up by name: a schema without one of them is still read.
                try database.each("SELECT * FROM tab_sessions") { row in
                    guard let uuid = row["tab_uuid"]?.text else { return }
                    sessions[uuid] = (row["session_data"]?.blob, row["uncompressed_session_data_size"]?.integer.map { Int(clamping: $0) })
                }
            }
            // A row without its UUID (NOT NULL in Safari's schema) is no tab of Safari's: what a
            // damaged page gives SQLite to read.
            var tabs: [Tab] = []
            try database.each("SELECT * FROM tabs ORDER BY order_index, rowid") { row in
                guard !(row["uuid"]?.text ?? "").isEmpty else { return }
                var tab = self.tab(row)
                // Before iOS 12 the state was a column of `tabs`.
                if let stored = sessions.removeValue(forKey: tab.uuid) {
                    (tab.sessionData, tab.uncompressedSize) = stored
                } else if let data = row["session_data"]?.blob {
                    tab.sessionData = data
                }
                tabs.append(tab)
            }
            return BrowserStateDatabase(userVersion: version, integrity: integrity, windows: windows, tabs: tabs)
        } catch {
            throw .refused(code: error.code, reason: error.message)
        }
    }

    /// What a rewrite of the database whose bytes are `files` carries over, through SQLite on a
    /// private copy of them: its schema's statements and every row of every table, each column as
    /// stored (the columns sessionctl does not know included). Read only when a repair plans one.
    static func content(
        _ files: PrivateDatabaseCopy.Files, name: String, userVersion: Int64
    ) throws(BrowserStateRefusal) -> BrowserStateContent {
        let copy = try PrivateDatabaseCopy(files, name: name)
        defer { withExtendedLifetime(copy) {} }
        do throws(SQLiteDatabase.Failure) {
            return BrowserStateContent.read(try SQLiteDatabase(path: copy.path), userVersion: userVersion)
        } catch {
            throw .refused(code: error.code, reason: error.message)
        }
    }

    static func window(_ row: some ColumnValues) -> Window {
        Window(
            id: row["id"]?.integer, uuid: row["uuid"]?.text ?? "", type: row["type"]?.integer ?? 0,
            activeDocumentIndex: row["active_document_index"]?.integer,
            activePrivateDocumentIndex: row["active_private_document_index"]?.integer,
            profile: row["active_profile_identifier"]?.text)
    }

    static func tab(_ row: some ColumnValues) -> Tab {
        Tab(
            uuid: row["uuid"]?.text ?? "", title: row["title"]?.text ?? "", url: row["url"]?.text ?? "",
            userVisibleURL: row["user_visible_url"]?.text, orderIndex: row["order_index"]?.integer ?? 0,
            lastViewedTime: row["last_viewed_time"]?.real, isPrivate: (row["private_browsing"]?.integer ?? 0) != 0,
            windowUUID: row["browser_window_uuid"]?.text, windowID: row["browser_window_id"]?.integer,
            groupUUID: row["tab_group_uuid"]?.text, profileUUID: row["profile_uuid"]?.text)
    }
}

/// Why a `BrowserState.db` could not be read at all.
public enum BrowserStateRefusal: Error, Sendable, Equatable {
    /// The file (or a companion) could not be read from where it is.
    case unreadable(String)
    /// SQLite refused it (not a database, damaged pages, no tabs table): its code and message.
    case refused(code: Int32, reason: String)

    /// The refusal in a phrase.
    public var reason: String {
        switch self {
        case .unreadable(let reason): reason
        case .refused(let code, let reason): code == 0 ? reason : "SQLite refuses it: \(reason) (code \(code))"
        }
    }
}
