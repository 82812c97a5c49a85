/// The windows and tabs of a `BrowserState.db` read from its pages by hand (`SQLitePageScanner`):
/// every version of every row in its main file and its WAL, SQLite's or not. What inspect shows
/// when SQLite refuses the file, and, of a file SQLite reads, the tabs no row it reads holds any
/// more (closed or replaced, left in superseded WAL frames or freed pages).
public struct BrowserStateSalvage: Sendable {
    /// The windows and tabs found, each UUID once at its newest version (a tab with the state its
    /// newest `tab_sessions` row holds; a state whose tab's row is lost makes a tab of its own,
    /// named by its current entry).
    public var windows: [BrowserStateDatabase.Window]
    public var tabs: [BrowserStateDatabase.Tab]
    /// The schema found and the newest version of every row of Safari's three tables, each
    /// column as stored: what a rewrite of a file SQLite cannot read whole carries over.
    var content = BrowserStateContent()
    /// The decoded states of the tabs made from a state alone (their row lost), by tab UUID:
    /// decoded once, here, to name the tab.
    var orphanStates: [String: SafariTabState.Decoded] = [:]

    /// Columns of the tables as schema 8 creates them, for a file whose schema cannot be read.
    static let knownColumns: [String: [String]] = [
        "tabs": [
            "id", "uuid", "title", "url", "user_visible_url", "order_index", "last_viewed_time", "readinglist_bookmark_id",
            "opened_from_link", "showing_reader", "reader_view_top_scroll_offset", "private_browsing", "displaying_standalone_image",
            "browser_window_uuid", "browser_window_id", "tab_group_uuid", "profile_uuid"
        ],
        "tab_sessions": ["id", "tab_uuid", "session_data", "uncompressed_session_data_size"],
        "browser_windows": [
            "id", "uuid", "type", "active_document_index", "active_private_document_index", "active_document_is_valid",
            "tab_state_successfully_loaded", "legacy_plist_file_version", "scene_ID", "active_profile_identifier"
        ]
    ]

    /// Scans the bytes of a database and of its WAL. With `live`, the keys (UUIDs) of the rows
    /// SQLite read, only the other rows are read whole (the schema's, and those SQLite no longer
    /// has), and no row is kept for a rewrite (one of a file Safari keeps is read through SQLite).
    /// `path` names the database in what a state that does not decode says.
    public static func scan(database: [UInt8], wal: [UInt8]?, live: Set<String>? = nil, path: String = "") -> BrowserStateSalvage {
        let rows = SQLitePageScanner(database: database, wal: wal).rows(
            wanted: live.map { live in
                { record in
                    guard record.values.count > 1, case .text(let key) = record.values[1] else { return true }
                    return !live.contains(key)
                }
            })
        var columns = knownColumns
        var content = BrowserStateContent()
        var statements: [String: BrowserStateContent.Statement] = [:]
        for row in rows where row.record.values.count == 5 {
            guard case .text(let type) = row.record.values[0], case .text(let name) = row.record.values[1],
                case .text(let table) = row.record.values[2], case .text(let sql) = row.record.values[4],
                ["table", "index", "trigger", "view"].contains(type), sql.uppercased().hasPrefix("CREATE"), !name.hasPrefix("sqlite_")
            else { continue }
            statements[name] = BrowserStateContent.Statement(type: type, name: name, table: table, sql: sql)
            guard type == "table", columns[name] != nil else { continue }
            let parsed = Self.columns(of: sql)
            if parsed.count >= 3 { columns[name] = parsed }
        }
        // Safari's three tables always: their statements as the file gives them, else schema 8's.
        content.schema =
            BrowserStateContent.knownSchema.map { statements[$0.name] ?? $0 }
            + statements.values.filter { statement in
                !BrowserStateContent.knownSchema.contains { $0.name == statement.name }
                    && (statement.type != "table" || columns[statement.name] != nil) && columns[statement.table] != nil
            }.sorted { $0.name < $1.name }
        var raw: [String: [String: [String: SQLiteDatabase.Value]]] = [:]
        var rawOrder: [String: [String]] = [:]
        var windows: [String: BrowserStateDatabase.Window] = [:]
        var windowOrder: [String] = []
        var tabs: [String: BrowserStateDatabase.Tab] = [:]
        var tabOrder: [String] = []
        var states: [String: (data: [UInt8]?, size: Int?)] = [:]
        for row in rows {
            guard let table = table(of: row.record, columns: columns), let names = columns[table] else { continue }
            var named: [String: SQLiteDatabase.Value] = [:]
            for (name, value) in zip(names, row.record.values) { named[name] = value }
            // An INTEGER PRIMARY KEY is the rowid, stored as NULL in the record.
            if named["id"] == nil || named["id"] == .null { named["id"] = .integer(row.record.rowid) }
            if live == nil {
                let key = named[table == "tab_sessions" ? "tab_uuid" : "uuid"]?.text ?? ""
                var stored = named
                stored[BrowserStateContent.rowidColumn] = .integer(row.record.rowid)
                if raw[table, default: [:]].updateValue(stored, forKey: key) == nil { rawOrder[table, default: []].append(key) }
            }
            switch table {
            case "tabs":
                let tab = BrowserStateDatabase.tab(named)
                if tabs.updateValue(tab, forKey: tab.uuid) == nil { tabOrder.append(tab.uuid) }
            case "tab_sessions":
                guard let uuid = named["tab_uuid"]?.text else { continue }
                states[uuid] = (named["session_data"]?.blob, named["uncompressed_session_data_size"]?.integer.map { Int(clamping: $0) })
            default:
                let window = BrowserStateDatabase.window(named)
                if windows.updateValue(window, forKey: window.uuid) == nil { windowOrder.append(window.uuid) }
            }
        }
        for (table, keys) in rawOrder { content.rows[table] = keys.compactMap { raw[table]?[$0] } }
        var found = tabOrder.compactMap { uuid -> BrowserStateDatabase.Tab? in
            guard var tab = tabs[uuid] else { return nil }
            if let state = states[uuid] { (tab.sessionData, tab.uncompressedSize) = state }
            return tab
        }
        // A state whose tab's row is lost (a torn page) still names the page the tab was on: its
        // current entry gives the tab's URL and title; it belongs to no window Safari lists.
        let first = windowOrder.first { windows[$0]?.isOpen == true }
        var orphanStates: [String: SafariTabState.Decoded] = [:]
        for (uuid, state) in states.sorted(by: { $0.key < $1.key }) where tabs[uuid] == nil {
            guard let data = state.data else { continue }
            let whole = SafariTabState.decode(data, uncompressedSize: state.size, file: stateLabel(path, tab: uuid))
            guard let decoded = whole.state,
                let current = decoded.currentIndex.flatMap({ decoded.entries.indices.contains($0) ? decoded.entries[$0] : nil })
            else { continue }
            found.append(
                BrowserStateDatabase.Tab(
                    uuid: uuid, title: current.title, url: current.url, userVisibleURL: current.url, orderIndex: Int64(found.count),
                    lastViewedTime: nil, isPrivate: false, windowUUID: first, windowID: nil, groupUUID: nil, profileUUID: nil,
                    sessionData: data, uncompressedSize: state.size))
            orphanStates[uuid] = whole
            var row: [String: SQLiteDatabase.Value] = [
                "uuid": .text(uuid), "title": .text(current.title), "url": .text(current.url), "user_visible_url": .text(current.url),
                "order_index": .integer(Int64(found.count)), "private_browsing": .integer(0), "browser_window_id": .integer(0)
            ]
            row["browser_window_uuid"] = .text(first ?? "")
            content.rows["tabs", default: []].append(row)
        }
        // In each window's order (sorting positions, not the tabs themselves).
        let order = found.indices.sorted {
            (found[$0].windowUUID ?? "", found[$0].orderIndex) < (found[$1].windowUUID ?? "", found[$1].orderIndex)
        }
        return BrowserStateSalvage(
            windows: windowOrder.compactMap { windows[$0] }, tabs: order.map { found[$0] }, content: content, orphanStates: orphanStates)
    }

    /// How a tab's state is named in what is said of it: the database's path, its table and the tab.
    static func stateLabel(_ path: String, tab uuid: String) -> String { "\(path) (tab_sessions, tab \(uuid))" }

    /// The table a record is a row of, by its shape: a UUID where the table keeps one, and no more
    /// values than the table has columns (a row written before a column was added has fewer).
    private static func table(of record: SQLiteRecord, columns: [String: [String]]) -> String? {
        let values = record.values
        func uuid(_ table: String, _ column: String) -> Bool {
            guard let index = columns[table]?.firstIndex(of: column), index < values.count, case .text(let text) = values[index] else {
                return false
            }
            return isUUID(text)
        }
        var best: (table: String, spare: Int)?
        for (table, key) in [("tabs", "uuid"), ("tab_sessions", "tab_uuid"), ("browser_windows", "uuid")] {
            guard let count = columns[table]?.count, values.count <= count, values.count >= min(count, 3), uuid(table, key) else {
                continue
            }
            if table == "tabs", !uuid("tabs", "browser_window_uuid") { continue }
            if table == "tab_sessions", values.count > 2, !(values[2] == .null || values[2].blob != nil) { continue }
            if best == nil || count - values.count < best?.spare ?? Int.max { best = (table, count - values.count) }
        }
        return best?.table
    }

    /// Whether `text` is a UUID as Safari writes them (36 characters, hex digits and four dashes).
    package static func isUUID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        return bytes.enumerated().allSatisfy { index, byte in
            [8, 13, 18, 23].contains(index)
                ? byte == UInt8(ascii: "-")
                : (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x66)
        }
    }

    /// The column names of a `CREATE TABLE` statement, in order (table constraints left out).
    package static func columns(of sql: String) -> [String] {
        guard let open = sql.firstIndex(of: "("), let close = sql.lastIndex(of: ")"), open < close else { return [] }
        var parts: [String] = []
        var depth = 0
        var current = ""
        for character in sql[sql.index(after: open)..<close] {
            if character == "(" { depth += 1 }
            if character == ")" { depth -= 1 }
            if character == ",", depth == 0 {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(current)
        let constraints: Set<String> = ["PRIMARY", "UNIQUE", "CHECK", "FOREIGN", "CONSTRAINT"]
        return parts.compactMap { part in
            let name = part.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "(" }).first.map(String.init) ?? ""
            let bare = String(name.filter { !"\"`[]".contains($0) })
            return bare.isEmpty || constraints.contains(bare.uppercased()) ? nil : bare
        }
    }
}
