import Archive
import ChromiumDesktop
@_spi(CrashTesting) import CrashSimulator
@_spi(CrashTesting) import FileSystemKit
import SessionFormats
import SessionModel
import SessionStore

/// Writes a Chromium desktop profile's `Session_` files as Chrome's `CommandStorageBackend` does,
/// under a `ChromiumDesktopSaveProtocol`, on the recording file system: appends to the open file,
/// resets into a new timestamped file, and the deletions at launch and after a reset.
struct SNSSStoreWriter {
    /// Where a batch of commands ended up: the file's name and its size after the batch.
    struct Written: Sendable, Equatable {
        var name: String
        var end: Int
    }

    let fileSystem: ModelFileSystem
    /// The profile directory.
    let profile: String
    let saveProtocol: ChromiumDesktopSaveProtocol
    /// Everything written to each file, by name: what its bytes should be (files are created once
    /// and only appended to).
    private(set) var intended: [String: [UInt8]] = [:]
    private var open: (name: String, handle: FileHandleID)?
    /// `last_or_current_path_with_valid_marker_` and `second_to_last_path_with_valid_marker_`.
    private var lastWithMarker: String?
    private var secondToLastWithMarker: String?
    /// The time in the newest name written (microseconds since 1601), and the restored file's.
    private var timestamp: Int64 = 0
    private var restoredTimestamp: Int64 = 0

    init(fileSystem: ModelFileSystem, profile: String, saveProtocol: ChromiumDesktopSaveProtocol) {
        self.fileSystem = fileSystem
        self.profile = profile
        self.saveProtocol = saveProtocol
    }

    /// The `Sessions` directory.
    var directory: String { joinPath(profile, ChromiumDesktopLayout.sessionsDirectory) }

    /// The backend's first use in a new process (`InitIfNecessary`): the directory made, and every
    /// `Session_` file but `restored` (the one taken as the last session) deleted.
    mutating func start(restored: String?) throws(FileSystemError) {
        open = nil
        lastWithMarker = nil
        secondToLastWithMarker = nil
        timestamp = 0
        restoredTimestamp = restored.flatMap { ChromiumDesktopLayout.parse($0)?.time } ?? 0
        if fileSystem.kind(of: directory) == nil {
            try fileSystem.mkdir(directory, mode: 0o755)
            try syncDirectory(profile)
        }
        for name in try fileSystem.list(directory).sorted() where name != restored {
            // The durable protocol's temporary files go too (Chrome's own never makes them).
            guard ChromiumDesktopLayout.parse(name)?.type == .session || name.hasSuffix(".tmp") else { continue }
            try fileSystem.unlink(joinPath(directory, name))
            try syncDirectory(directory)
        }
    }

    /// A reset at `now` (microseconds since 1601): the open file closed, a new file created with
    /// the header, `state` (a full state's records and the marker) appended, then the file of two
    /// resets before deleted. Under the durable protocol the new file is written and fsynced under
    /// a name Chrome does not list (`<name>.tmp`), renamed into place and the directory fsynced,
    /// so that it never appears without its full state.
    mutating func reset(_ state: [UInt8], now: Int64) throws(FileSystemError) -> Written {
        if let open { try fileSystem.close(open.handle) }
        open = nil
        // TruncateOrOpenFile: later than the last session's file and than the previous file.
        timestamp = max(now, restoredTimestamp + 1, timestamp + 1)
        let name = ChromiumDesktopLayout.name(.session, time: timestamp)
        let path = joinPath(directory, name)
        let staging = saveProtocol == .durable ? path + ".tmp" : path
        let handle = try fileSystem.openTruncating(staging, mode: 0o600)
        open = (name, handle)
        intended[name] = []
        try put(Array(state.prefix(SNSSFile.headerSize)))
        try appendRecords(state.dropFirst(SNSSFile.headerSize))
        if staging != path {
            try fileSystem.rename(staging, to: path)
            try fileSystem.fsyncDirectory(directory)
        }
        if let older = secondToLastWithMarker {
            try fileSystem.unlink(joinPath(directory, older))
            try syncDirectory(directory)
        }
        secondToLastWithMarker = lastWithMarker
        lastWithMarker = name
        return Written(name: name, end: intended[name]?.count ?? 0)
    }

    /// Appends `commands` to the open file; nil when none is open (Chrome drops them).
    mutating func append(_ commands: [SNSSCommand]) throws(FileSystemError) -> Written? {
        guard let open else { return nil }
        try appendRecords(ArraySlice(commands.flatMap(\.record)))
        return Written(name: open.name, end: intended[open.name]?.count ?? 0)
    }

    /// The process ends: the open file is forgotten (its handle dies with the process).
    mutating func stop() { open = nil }

    /// Writes each record as `AppendCommandToFile` does: serialised and written in one write
    /// (components/sessions/core/command_storage_backend.cc, `WriteAtCurrentPosAndCheck(
    /// command.Serialize())`), or its size, its id and its contents in three writes as older
    /// Chromium did; then flushes under the protocols that do.
    private mutating func appendRecords(_ records: ArraySlice<UInt8>) throws(FileSystemError) {
        var offset = records.startIndex
        while offset + 3 <= records.endIndex {
            let size = Int(records[offset]) | Int(records[offset + 1]) << 8
            let contents = offset + 3..<min(offset + 2 + size, records.endIndex)
            if saveProtocol == .splitWrites {
                try put(Array(records[offset..<offset + 2]))
                try put([records[offset + 2]])
                if !contents.isEmpty { try put(Array(records[contents])) }
            } else {
                try put(Array(records[offset..<contents.upperBound]))
            }
            offset = contents.upperBound
        }
        if saveProtocol == .flush || saveProtocol == .durable, let open { try fileSystem.fsync(open.handle) }
    }

    /// One write to the open file.
    private mutating func put(_ bytes: [UInt8]) throws(FileSystemError) {
        guard let open else { return }
        var written = 0
        while written < bytes.count { written += try fileSystem.write(open.handle, bytes[written...]) }
        intended[open.name, default: []] += bytes
    }

    /// Fsyncs a directory under the durable protocol; Chrome's own never does.
    private func syncDirectory(_ path: String) throws(FileSystemError) {
        if saveProtocol == .durable { try fileSystem.fsyncDirectory(path) }
    }
}
