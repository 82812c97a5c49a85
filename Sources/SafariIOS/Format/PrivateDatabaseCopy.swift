import FileSystemKit
import SessionFormats

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A private copy of an SQLite database and the files beside it (`-wal`, `-shm`), in a scratch
/// directory of its own that is removed when the copy is: SQLite writes to the files it opens
/// (it replays a WAL, rebuilds its index), so the evidence itself is only ever read, through the
/// tree it was found in (a profile on disk or a bundle), and never opened by SQLite.
final class PrivateDatabaseCopy {
    /// The copy of the database, which SQLite opens.
    let path: String
    private let directory: String
    private let names: [String]

    /// The bytes of a database and of the files beside it, as read from where they are.
    struct Files: Sendable {
        var database: [UInt8]
        var wal: [UInt8]?
        var shm: [UInt8]?

        /// Reads `file` of `tree` and each of its `-wal` and `-shm` there is (where
        /// `SafariIOSLayout.companions` says), each once.
        static func read(_ file: String, tree: ReadableTree) throws(BrowserStateRefusal) -> Files {
            let companions = SafariIOSLayout.companions(of: file)
            func companion(_ index: Int) throws(BrowserStateRefusal) -> [UInt8]? {
                guard index < companions.count, tree.kind(of: companions[index]) == .file else { return nil }
                do throws(FormatError) { return try tree.read(companions[index]) } catch { throw .unreadable(error.description) }
            }
            let database: [UInt8]
            do throws(FormatError) { database = try tree.read(file) } catch { throw .unreadable(error.description) }
            return Files(database: database, wal: try companion(0), shm: try companion(1))
        }
    }

    /// Writes `files` into a new scratch directory, named `name` and its companions.
    init(_ files: Files, name: String) throws(BrowserStateRefusal) {
        let base = (getenv("TMPDIR").map { String(cString: $0) }).flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array(joinPath(base, "sessionctl-sqlite.XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }) else {
            throw .unreadable("cannot make a scratch directory in \(base) for the database's private copy")
        }
        directory = String(cString: made)
        let name = name.isEmpty ? "database" : name
        var copied: [String] = []
        for (suffix, bytes) in [("", files.database), ("-wal", files.wal), ("-shm", files.shm)] {
            guard let bytes else { continue }
            copied.append(name + suffix)
            do throws(FormatError) {
                try PrivateDatabaseCopy.write(bytes, to: joinPath(directory, name + suffix))
            } catch {
                PrivateDatabaseCopy.remove(directory, names: copied)
                throw .unreadable(error.description)
            }
        }
        names = copied
        path = joinPath(directory, name)
    }

    deinit {
        // SQLite may have added a journal of its own beside the copy.
        PrivateDatabaseCopy.remove(directory, names: names + ["-journal", "-wal", "-shm"].map { lastPathComponent(path) + $0 })
    }

    private static func write(_ bytes: [UInt8], to path: String) throws(FormatError) {
        let fileSystem = POSIXFileSystem()
        do throws(FileSystemError) {
            let handle = try fileSystem.createExclusive(path, mode: 0o600)
            defer { try? fileSystem.close(handle) }
            var offset = 0
            while offset < bytes.count { offset += try fileSystem.write(handle, bytes[offset...]) }
        } catch {
            throw .unreadable(path: path, reason: "cannot write the database's private copy: \(error.description)")
        }
    }

    private static func remove(_ directory: String, names: [String]) {
        for name in Set(names) { unlink(joinPath(directory, name)) }
        rmdir(directory)
    }
}
