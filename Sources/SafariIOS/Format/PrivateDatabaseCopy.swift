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

    /// Copies `file` of `tree` and each of its `-wal` and `-shm` there is.
    init(_ file: String, tree: ReadableTree) throws(BrowserStateRefusal) {
        let base = (getenv("TMPDIR").map { String(cString: $0) }).flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array(joinPath(base, "sessionctl-sqlite.XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }) else {
            throw .unreadable("cannot make a scratch directory in \(base) for the database's private copy")
        }
        directory = String(cString: made)
        var copied: [String] = []
        let name = lastPathComponent(file).isEmpty ? "database" : lastPathComponent(file)
        for suffix in [""] + SafariIOSLayout.companionSuffixes {
            let source = file + suffix
            guard suffix.isEmpty || tree.kind(of: source) == .file else { continue }
            do throws(FormatError) {
                let bytes = try tree.read(source)
                copied.append(name + suffix)
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
