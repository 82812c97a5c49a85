import FileSystemKit
import SessionStore

/// One call the store made to a `ModelFileSystem`, with paths as they are in the tree, so that
/// it can be made again on another tree (see `RecoveryMemo`).
struct TracedCall: Equatable, Sendable {
    enum Kind: UInt8, Sendable {
        case create, openTruncating, write, fsync, close, rename, fsyncDirectory, link, unlink, mkdir, rmdir, read, list, kind, entries,
            leftovers,
            removeTree, linkTree
    }

    var kind: Kind
    var path: String
    var other = ""
    /// A handle or a mode.
    var number: Int32 = 0
    var bytes: [UInt8] = []

    init(_ kind: Kind, _ path: String, other: String = "", number: Int32 = 0, bytes: [UInt8] = []) {
        self.kind = kind
        self.path = path
        self.other = other
        self.number = number
        self.bytes = bytes
    }

    /// The answer key of a call that succeeded with nothing to say.
    static let done: UInt64 = 0x646F_6E65
    /// What a replayed call made in one step answers when it cannot be made so on this tree: no
    /// run answered it, so the replay stops.
    static let notAtOnce: UInt64 = 0x6E6F_7420_6174_206F
    static func answer(_ error: FileSystemError) -> UInt64 { ContentHash.combine(ContentHash.of(error.description), 0x6572_72) }
    static func answer(_ blob: Blob) -> UInt64 { ContentHash.combine(blob.hash, 0x7265_6164) }
    static func answer(_ kind: FileKind?) -> UInt64 {
        switch kind {
        case nil: return 0x6B30
        case .file: return 0x6B31
        case .directory: return 0x6B32
        case .other: return 0x6B33
        }
    }
    static func answer(_ number: Int) -> UInt64 { ContentHash.combine(UInt64(bitPattern: Int64(number)), 0x6E75_6D) }
    static func answer(_ paths: [String]?) -> UInt64 {
        guard let paths else { return 0x6E6F_6E65 }
        return paths.reduce(ContentHash.combine(UInt64(paths.count), 0x6C65_6674)) { ContentHash.combine($0, ContentHash.of($1)) }
    }
}

extension ModelFileSystem {
    /// Adds a traced call of `weight` (see `traceWeight`), and stops tracing once the weight
    /// traced reaches `traceLimit`.
    func note(_ step: (call: TracedCall, answer: UInt64), weight: Int = 1) {
        trace.append(step)
        traceWeight += weight
        if traceWeight >= traceLimit { isTracing = false }
    }

    /// Runs `body` (one FileSystem call), tracing it with `call` and the answer `key` gives.
    @inline(__always)
    private func traced<T>(
        _ call: () -> TracedCall, _ key: (T) -> UInt64, _ body: () throws(FileSystemError) -> T
    ) throws(FileSystemError) -> T {
        guard isTracing else { return try body() }
        do throws(FileSystemError) {
            let value = try body()
            note((call(), key(value)))
            return value
        } catch {
            note((call(), TracedCall.answer(error)))
            throw error
        }
    }

    public func createExclusive(_ path: String, mode: UInt32) throws(FileSystemError) -> FileHandleID {
        do throws(FileSystemError) {
            let handle = try rawCreateExclusive(path, mode: mode)
            if isTracing {
                note((TracedCall(.create, lastCreatedPath, number: Int32(bitPattern: mode)), TracedCall.answer(Int(handle.rawValue))))
            }
            return handle
        } catch {
            if isTracing { note((TracedCall(.create, lastCreatedPath, number: Int32(bitPattern: mode)), TracedCall.answer(error))) }
            throw error
        }
    }

    /// Opens a file for writing, truncating it (recorded as a truncate), or creates it.
    public func openTruncating(_ path: String, mode: UInt32) throws(FileSystemError) -> FileHandleID {
        try traced(
            { TracedCall(.openTruncating, modelPath(path), number: Int32(bitPattern: mode)) }, { TracedCall.answer(Int($0.rawValue)) }
        ) { () throws(FileSystemError) in
            try rawOpenTruncating(path, mode: mode)
        }
    }

    public func write(_ handle: FileHandleID, _ bytes: ArraySlice<UInt8>) throws(FileSystemError) -> Int {
        try traced({ TracedCall(.write, "", number: handle.rawValue, bytes: Array(bytes)) }, { TracedCall.answer($0) }) {
            () throws(FileSystemError) in
            try rawWrite(handle, bytes)
        }
    }

    public func fsync(_ handle: FileHandleID) throws(FileSystemError) {
        try traced({ TracedCall(.fsync, "", number: handle.rawValue) }, { TracedCall.done }) { () throws(FileSystemError) in
            try rawFsync(handle)
        }
    }

    public func close(_ handle: FileHandleID) throws(FileSystemError) {
        try traced({ TracedCall(.close, "", number: handle.rawValue) }, { TracedCall.done }) { () throws(FileSystemError) in
            try rawClose(handle)
        }
    }

    public func rename(_ source: String, to destination: String) throws(FileSystemError) {
        try traced({ TracedCall(.rename, modelPath(source), other: modelPath(destination)) }, { TracedCall.done }) {
            () throws(FileSystemError) in
            try rawRename(source, to: destination)
        }
    }

    public func fsyncDirectory(_ path: String) throws(FileSystemError) {
        try traced({ TracedCall(.fsyncDirectory, modelPath(path)) }, { TracedCall.done }) { () throws(FileSystemError) in
            try rawFsyncDirectory(path)
        }
    }

    public func link(_ source: String, to destination: String) throws(FileSystemError) {
        try traced({ TracedCall(.link, modelPath(source), other: modelPath(destination)) }, { TracedCall.done }) {
            () throws(FileSystemError) in
            try rawLink(source, to: destination)
        }
    }

    public func unlink(_ path: String) throws(FileSystemError) {
        try traced({ TracedCall(.unlink, modelPath(path)) }, { TracedCall.done }) { () throws(FileSystemError) in try rawUnlink(path) }
    }

    public func mkdir(_ path: String, mode: UInt32) throws(FileSystemError) {
        try traced({ TracedCall(.mkdir, modelPath(path), number: Int32(bitPattern: mode)) }, { TracedCall.done }) {
            () throws(FileSystemError) in
            try rawMkdir(path, mode: mode)
        }
    }

    public func rmdir(_ path: String) throws(FileSystemError) {
        try traced({ TracedCall(.rmdir, modelPath(path)) }, { TracedCall.done }) { () throws(FileSystemError) in try rawRmdir(path) }
    }

    /// Makes a traced call again and returns its answer key (what the store would have been told).
    func perform(_ call: TracedCall) -> UInt64 {
        do throws(FileSystemError) {
            switch call.kind {
            case .create:
                return TracedCall.answer(
                    Int(try rawCreateExclusive(call.path, mode: UInt32(bitPattern: call.number), canonical: true).rawValue))
            case .openTruncating:
                return TracedCall.answer(Int(try rawOpenTruncating(call.path, mode: UInt32(bitPattern: call.number)).rawValue))
            case .write: return TracedCall.answer(try rawWrite(FileHandleID(rawValue: call.number), call.bytes[...]))
            case .fsync: try rawFsync(FileHandleID(rawValue: call.number))
            case .close: try rawClose(FileHandleID(rawValue: call.number))
            case .rename: try rawRename(call.path, to: call.other)
            case .fsyncDirectory: try rawFsyncDirectory(call.path)
            case .link: try rawLink(call.path, to: call.other)
            case .unlink: try rawUnlink(call.path)
            case .mkdir: try rawMkdir(call.path, mode: UInt32(bitPattern: call.number), canonical: true)
            case .rmdir: try rawRmdir(call.path)
            case .removeTree: try rawRemoveTree(call.path)
            case .linkTree:
                // A copy the store made at once is made at once again, or the replay stops there.
                guard let linked = rawLinkTree(call.path, to: call.other, syncing: call.bytes.first == 1) else {
                    return TracedCall.notAtOnce
                }
                return TracedCall.answer(linked)
            case .read: return TracedCall.answer(try readBlob(call.path))
            case .list: return listAnswer(try directoryEntries(call.path))
            case .leftovers: return TracedCall.answer(rawDirectories(below: call.path, holding: NamePrefixes(description: call.other)))
            case .entries:
                let entries = try directoryEntries(call.path)
                return entriesAnswer(entries, listing: listAnswer(entries))
            case .kind: return TracedCall.answer(rawKind(call.path))
            }
            return TracedCall.done
        } catch {
            return TracedCall.answer(error)
        }
    }
}
