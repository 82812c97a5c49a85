import CSQLite

/// One connection to an SQLite database through the system's libsqlite3, for reading: opened on
/// a private copy (`PrivateDatabaseCopy`), never on the evidence. Every statement runs under a
/// budget of SQLite's virtual-machine steps, so that a hostile file (a view or trigger where a
/// table should be, a cyclic page list) ends in an error, not a hang.
/// Values found by column name: a row as a dictionary, or as a statement gives it.
protocol ColumnValues {
    subscript(_ name: String) -> SQLiteDatabase.Value? { get }
}

extension Dictionary: ColumnValues where Key == String, Value == SQLiteDatabase.Value {}

final class SQLiteDatabase {
    /// Why SQLite refused: its result code and message.
    struct Failure: Error, Sendable, Equatable {
        var code: Int32
        var message: String
    }

    private let handle: OpaquePointer
    /// Steps of SQLite's virtual machine left to the connection.
    private let budget: Budget

    /// What the progress handler counts down; a class so that the C callback reaches it.
    private final class Budget {
        var remaining: Int
        init(_ remaining: Int) { self.remaining = remaining }
    }

    /// Opens the database at `path` (a private copy: SQLite may replay its WAL into it; with
    /// `create`, a new one), with a budget of `steps` thousand virtual-machine steps for all its
    /// statements together.
    init(path: String, steps: Int = 2_000_000, create: Bool = false) throws(Failure) {
        var opened: OpaquePointer?
        let code = sqlite3_open_v2(path, &opened, SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0), nil)
        guard code == SQLITE_OK, let opened else {
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_close_v2(opened)
            throw Failure(code: code, message: message)
        }
        handle = opened
        budget = Budget(steps)
        sqlite3_progress_handler(
            handle, 1000,
            { context in
                guard let context else { return 1 }
                let budget = Unmanaged<Budget>.fromOpaque(context).takeUnretainedValue()
                budget.remaining -= 1
                return budget.remaining < 0 ? 1 : 0
            }, Unmanaged.passUnretained(budget).toOpaque())
        // Nothing in the file is trusted to run: no function of its schema's views or triggers.
        _ = try? rows("PRAGMA trusted_schema = OFF")
        // A read leaves the copy's WAL where it is (closing would checkpoint it into the copy
        // for nothing: the copy is removed); a new database is checkpointed as it closes.
        if !create { _ = sessionctl_sqlite3_no_checkpoint_on_close(handle, 1) }
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// One value of a row.
    enum Value: Sendable, Equatable {
        case null
        case integer(Int64)
        case real(Double)
        case text(String)
        case blob([UInt8])

        var integer: Int64? {
            switch self {
            case .integer(let value): value
            case .real(let value): value.isFinite && abs(value) < 9.2e18 ? Int64(value) : nil
            case .text(let text): Int64(text)
            default: nil
            }
        }
        var real: Double? {
            switch self {
            case .integer(let value): Double(value)
            case .real(let value): value
            case .text(let text): Double(text)
            default: nil
            }
        }
        var text: String? {
            switch self {
            case .text(let text): text
            case .blob(let bytes): String(decoding: bytes, as: UTF8.self)
            case .integer(let value): String(value)
            default: nil
            }
        }
        var blob: [UInt8]? {
            switch self {
            case .blob(let bytes): bytes
            case .text(let text): Array(text.utf8)
            default: nil
            }
        }
    }

    /// One row of a statement, its values found by column name through the statement's one
    /// index of names and read from SQLite as they are asked for (a column never asked for is
    /// never made a value). Valid only within the `each` body it is given to.
    struct Row: ColumnValues {
        let statement: OpaquePointer
        let index: [String: Int]

        subscript(_ name: String) -> Value? {
            index[name].map { SQLiteDatabase.value(statement, Int32($0)) }
        }
    }

    /// Runs `sql` (no bindings) and gives each row to `body`, in order.
    func each(_ sql: String, _ body: (Row) throws(Failure) -> Void) throws(Failure) {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else { throw failure() }
        defer { sqlite3_finalize(statement) }
        let count = sqlite3_column_count(statement)
        var index: [String: Int] = [:]
        for column in 0..<count where index[String(cString: sqlite3_column_name(statement, column))] == nil {
            index[String(cString: sqlite3_column_name(statement, column))] = Int(column)
        }
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { throw failure() }
            try body(Row(statement: statement, index: index))
        }
    }

    /// Runs `sql`, its `?` bound to `bindings` in order, and returns every row, each by column name.
    func rows(_ sql: String, _ bindings: [Value] = []) throws(Failure) -> [[String: Value]] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw failure()
        }
        defer { sqlite3_finalize(statement) }
        // SQLite copies what is bound (SQLITE_TRANSIENT).
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        for (index, value) in bindings.enumerated() {
            let position = Int32(index + 1)
            let code: Int32 =
                switch value {
                case .null: sqlite3_bind_null(statement, position)
                case .integer(let number): sqlite3_bind_int64(statement, position, number)
                case .real(let number): sqlite3_bind_double(statement, position, number)
                case .text(let text):
                    // Its length given: a NUL inside the text is kept.
                    text.withCString {
                        sqlite3_bind_text64(statement, position, $0, sqlite3_uint64(text.utf8.count), transient, UInt8(SQLITE_UTF8))
                    }
                case .blob(let bytes):
                    bytes.withUnsafeBytes { buffer in
                        sqlite3_bind_blob64(statement, position, buffer.baseAddress, sqlite3_uint64(buffer.count), transient)
                    }
                }
            guard code == SQLITE_OK else { throw failure() }
        }
        let count = sqlite3_column_count(statement)
        let names = (0..<count).map { String(cString: sqlite3_column_name(statement, $0)) }
        var rows: [[String: Value]] = []
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return rows }
            guard code == SQLITE_ROW else { throw failure() }
            var row: [String: Value] = [:]
            for column in 0..<count {
                row[names[Int(column)]] = Self.value(statement, column)
            }
            rows.append(row)
        }
    }

    private static func value(_ statement: OpaquePointer, _ column: Int32) -> Value {
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, column))
        case SQLITE_TEXT:
            guard let text = sqlite3_column_text(statement, column) else { return .text("") }
            let length = Int(sqlite3_column_bytes(statement, column))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: length), as: UTF8.self))
        case SQLITE_BLOB:
            let length = Int(sqlite3_column_bytes(statement, column))
            guard length > 0, let bytes = sqlite3_column_blob(statement, column) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: length)))
        default: return .null
        }
    }

    /// The columns of `table`, by name (empty when there is no such table).
    func columns(of table: String) throws(Failure) -> Set<String> {
        Set(try rows("PRAGMA table_info(\(table))").compactMap { $0["name"]?.text })
    }

    /// Whether `name` is a table of the database (not a view, which a hostile file could put there).
    func hasTable(_ name: String) throws(Failure) -> Bool {
        try rows("SELECT name FROM sqlite_master WHERE type = 'table'").contains { $0["name"]?.text == name }
    }

    private func failure() -> Failure {
        let code = sqlite3_errcode(handle)
        let message =
            budget.remaining < 0 ? "SQLite took more than its budget of steps on this file" : String(cString: sqlite3_errmsg(handle))
        return Failure(code: code, message: message)
    }
}
