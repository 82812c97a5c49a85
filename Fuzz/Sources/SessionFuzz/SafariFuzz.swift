import FileSystemKit
import SafariIOS
import SessionFormats

/// Safari for iOS's bytes: Apple's LZ4 stream and a tab's stored state, and a whole
/// BrowserState.db through SQLite on a private copy.
enum SafariFuzz {
    /// The most a fuzz input's stream may decode to: small, so that a seed of megabytes (a state
    /// Safari compressed) meets the limit fast and the fuzzer keeps its pace.
    static let limit = 1 << 18

    /// Any bytes round-trip through a stream; any stream decodes within the limit or is damage
    /// inside it; a tab's state of any bytes decodes, is dropped or is damage, never a trap.
    @Sendable static func appleLZ4(_ bytes: [UInt8]) {
        guard (try? AppleLZ4.decode(AppleLZ4.encode(bytes), limit: bytes.count)) == bytes else {
            fatalError("bytes did not survive Apple's LZ4 stream")
        }
        do {
            let decoded = try AppleLZ4.decode(bytes, limit: limit)
            if decoded.count > limit { fatalError("more out than the limit") }
        } catch {
            if error.offset < 0 || error.offset > bytes.count { fatalError("damage outside the stream") }
        }
        let size = bytes.count >= 8 ? bytes[4..<8].reversed().reduce(0) { $0 << 8 | Int($1) } : 0
        if case .history(let state, _) = SafariTabState.decode(bytes, uncompressedSize: min(size, limit), file: "f") {
            // A state that decodes is one WebKit's encoding gives back.
            if (try? WebKitSessionState.decode(state.encode(), file: "f")) != state { fatalError("a decoded state does not re-encode") }
        }
    }

    /// Any bytes as a BrowserState.db: read through SQLite on a private copy, within its budget
    /// of steps; what it reads is as many tabs as rows, each state decoded or refused.
    @Sendable static func browserState(_ bytes: [UInt8]) {
        let tree = ReadableTree(fileSystem: OneFile(bytes: bytes), root: "")
        guard let database = try? BrowserStateDatabase.read(SafariIOSLayout.databaseFile, tree: tree) else { return }
        for tab in database.tabs {
            guard let data = tab.sessionData else { continue }
            _ = SafariTabState.decode(data, uncompressedSize: tab.uncompressedSize, file: "f")
        }
    }
}

/// A file system of one file, `BrowserState.db`, holding the fuzz input.
private struct OneFile: ReadableFileSystem {
    let bytes: [UInt8]

    func kind(of path: String) -> FileKind? {
        path == SafariIOSLayout.databaseFile ? .file : path.isEmpty || path == "/" ? .directory : nil
    }
    func resolvedKind(of path: String) -> FileKind? { kind(of: path) }
    func list(_ path: String) throws(FileSystemError) -> [String] { [SafariIOSLayout.databaseFile] }
    func read(_ path: String, limit: Int) throws(FileSystemError) -> [UInt8] {
        guard path == SafariIOSLayout.databaseFile else {
            throw .io(operation: "open", path: path, code: 2, reason: "No such file or directory")
        }
        return Array(bytes.prefix(limit))
    }
    func size(of path: String) -> Int? { kind(of: path) == .file ? bytes.count : nil }
    var readsConcurrently: Bool { true }
}
