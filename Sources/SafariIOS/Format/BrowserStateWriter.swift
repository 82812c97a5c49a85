import FileSystemKit
import SessionFormats

/// Writes a new `BrowserState.db` holding `BrowserStateContent` through SQLite itself, in a
/// scratch directory, and gives its bytes: the tables of the schema, every row with every column
/// as it was stored (rowids kept), then the indexes and triggers, `user_version` as it was, in WAL
/// mode as Safari keeps it, checkpointed into the one file (no `-wal` is left to go with it).
enum BrowserStateWriter {
    /// Why the new database could not be written.
    struct Failure: Error, Sendable {
        var reason: String
    }

    static func write(_ content: BrowserStateContent) throws(Failure) -> [UInt8] {
        let scratch: PrivateDatabaseCopy
        do throws(BrowserStateRefusal) {
            // An empty scratch directory of its own, removed with the copy.
            scratch = try PrivateDatabaseCopy(.init(database: []), name: SafariIOSLayout.databaseFile)
        } catch {
            throw Failure(reason: error.reason)
        }
        defer { withExtendedLifetime(scratch) {} }
        do throws(SQLiteDatabase.Failure) {
            do {
                let database = try SQLiteDatabase(path: scratch.path, create: true)
                _ = try database.rows("PRAGMA journal_mode = WAL")
                _ = try database.rows("BEGIN")
                for statement in content.schema where statement.type == "table" { _ = try database.rows(statement.sql) }
                for statement in content.schema where statement.type == "table" {
                    for row in content.rows[statement.name] ?? [] { try insert(row, into: statement.name, database) }
                }
                for statement in content.schema where statement.type != "table" { _ = try database.rows(statement.sql) }
                _ = try database.rows("PRAGMA user_version = \(content.userVersion)")
                _ = try database.rows("COMMIT")
                _ = try database.rows("PRAGMA wal_checkpoint(TRUNCATE)")
            }
            // Closed: the WAL is checkpointed and gone; the file holds everything.
            do throws(FormatError) {
                return try ReadableTree(fileSystem: POSIXFileSystem(), root: "/").read(String(scratch.path.dropFirst()))
            } catch {
                throw SQLiteDatabase.Failure(code: 0, message: error.description)
            }
        } catch {
            throw Failure(reason: "SQLite could not write the new database: \(error.message)")
        }
    }

    /// Inserts one row, its rowid kept where it has one; where that rowid is taken (two rows the
    /// pages gave, once at the same place), SQLite gives it another. A row that breaks another
    /// constraint is an error: nothing is dropped without a word.
    private static func insert(
        _ row: [String: SQLiteDatabase.Value], into table: String, _ database: SQLiteDatabase
    ) throws(SQLiteDatabase.Failure) {
        do throws(SQLiteDatabase.Failure) {
            try insertAsIs(row, into: table, database)
        } catch {
            guard row[BrowserStateContent.rowidColumn] != nil || row["id"] != nil else { throw error }
            var renumbered = row
            renumbered[BrowserStateContent.rowidColumn] = nil
            renumbered["id"] = nil
            try insertAsIs(renumbered, into: table, database)
        }
    }

    private static func insertAsIs(
        _ row: [String: SQLiteDatabase.Value], into table: String, _ database: SQLiteDatabase
    ) throws(SQLiteDatabase.Failure) {
        var names: [String] = []
        var values: [SQLiteDatabase.Value] = []
        for (name, value) in row.sorted(by: { $0.key < $1.key }) {
            names.append(name == BrowserStateContent.rowidColumn ? "rowid" : "\"\(BrowserStateContent.quoted(name))\"")
            values.append(value)
        }
        let columns = names.joined(separator: ", ")
        let places = Array(repeating: "?", count: values.count).joined(separator: ", ")
        _ = try database.rows("INSERT INTO \"\(BrowserStateContent.quoted(table))\" (\(columns)) VALUES (\(places))", values)
    }
}
