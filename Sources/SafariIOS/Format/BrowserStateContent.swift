/// Everything a `BrowserState.db` holds that a rewrite carries over: the statements of its schema
/// and every row of every table, each column as stored, whether read through SQLite or from the
/// pages by hand (`BrowserStateSalvage`).
struct BrowserStateContent: Sendable {
    /// One statement of the schema (`sqlite_master`): a table, index, view or trigger.
    struct Statement: Sendable, Equatable {
        var type: String
        var name: String
        var table: String
        var sql: String
    }

    var schema: [Statement] = []
    /// Each table's rows, by table name; each row by column name.
    var rows: [String: [[String: SQLiteDatabase.Value]]] = [:]
    var userVersion: Int64 = 8
    /// Tables SQLite could not read whole (a damaged page in the way): their rows are salvage's.
    var unreadTables: Set<String> = []

    /// Safari's schema 8, for a file whose own cannot be read (the statements MobileSafari's store
    /// runs; docs/safari-ios-format.md).
    static let knownSchema: [Statement] = [
        Statement(
            type: "table", name: "browser_windows", table: "browser_windows",
            sql:
                "CREATE TABLE browser_windows (id INTEGER PRIMARY KEY AUTOINCREMENT, uuid TEXT NOT NULL, type INTEGER DEFAULT 0, active_document_index INTEGER, active_private_document_index INTEGER, active_document_is_valid BOOL DEFAULT 1, tab_state_successfully_loaded BOOL, legacy_plist_file_version INTEGER, scene_ID TEXT, active_profile_identifier TEXT NOT NULL DEFAULT '', UNIQUE(uuid, type))"
        ),
        Statement(
            type: "table", name: "tabs", table: "tabs",
            sql:
                "CREATE TABLE tabs (id INTEGER PRIMARY KEY AUTOINCREMENT, uuid TEXT NOT NULL UNIQUE, title TEXT, url TEXT COLLATE NOCASE, user_visible_url TEXT COLLATE NOCASE, order_index INTEGER NOT NULL, last_viewed_time REAL DEFAULT NULL, readinglist_bookmark_id INTEGER, opened_from_link BOOL, showing_reader BOOL, reader_view_top_scroll_offset INTEGER, private_browsing BOOL, displaying_standalone_image BOOL, browser_window_uuid TEXT NOT NULL, browser_window_id INTEGER NOT NULL REFERENCES browser_windows(id) ON DELETE CASCADE, tab_group_uuid TEXT NOT NULL DEFAULT '', profile_uuid TEXT NOT NULL DEFAULT '')"
        ),
        Statement(
            type: "table", name: "tab_sessions", table: "tab_sessions",
            sql:
                "CREATE TABLE tab_sessions (id INTEGER PRIMARY KEY AUTOINCREMENT, tab_uuid TEXT NOT NULL UNIQUE REFERENCES tabs(uuid) ON DELETE CASCADE, session_data BLOB DEFAULT NULL, uncompressed_session_data_size INTEGER NOT NULL DEFAULT 0)"
        )
    ]

    /// The schema and every row of `database`, through SQLite; a table it cannot read whole is
    /// left to salvage (`unreadTables`).
    static func read(_ database: SQLiteDatabase, userVersion: Int64) -> BrowserStateContent {
        var content = BrowserStateContent(userVersion: userVersion)
        for row in (try? database.rows("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE sql IS NOT NULL")) ?? [] {
            guard let type = row["type"]?.text, let name = row["name"]?.text, let sql = row["sql"]?.text,
                !name.hasPrefix("sqlite_")
            else { continue }
            content.schema.append(Statement(type: type, name: name, table: row["tbl_name"]?.text ?? name, sql: sql))
        }
        if content.schema.isEmpty { content.schema = knownSchema }
        for statement in content.schema where statement.type == "table" {
            let table = "\"\(quoted(statement.name))\""
            // The rowid too, where the table has one, so that a rewrite keeps it.
            guard
                let rows = (try? database.rows("SELECT rowid AS \"\(rowidColumn)\", * FROM \(table)"))
                    ?? (try? database.rows("SELECT * FROM \(table)"))
            else {
                content.unreadTables.insert(statement.name)
                continue
            }
            content.rows[statement.name] = rows
        }
        return content
    }

    /// The name a row's rowid is read under (no column of Safari's has it).
    static let rowidColumn = "sessionctl rowid"

    /// A name inside double quotes, its own double quotes doubled.
    static func quoted(_ name: String) -> String {
        name.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"")
    }
}
