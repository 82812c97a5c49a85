import Archive
@_spi(CrashTesting) import CrashSimulator
@_spi(CrashTesting) import FileSystemKit
import FirefoxDesktop
import SessionFormats
import SessionModel
import SessionStore

/// Writes a Firefox desktop profile's session files as Firefox's `SessionWriter` does, under a
/// `FirefoxDesktopSaveProtocol`, on the recording file system.
struct SessionstoreWriter {
    /// Which file the session was loaded from, as `SessionWriter` tracks it: what the next write does.
    enum State: Sendable, Equatable {
        /// Nothing loaded: the next write makes the backups directory and writes recovery.
        case empty
        /// Loaded from the clean file: the next write moves it to previous.jsonlz4 first.
        case clean
        /// Loaded from another file, or written since: recovery is rotated to its backup first.
        case recovery
        /// Loaded from a file that is neither (the backups): recovery is written without rotation.
        case other
    }

    let fileSystem: ModelFileSystem
    /// The profile directory.
    let profile: String
    let saveProtocol: FirefoxDesktopSaveProtocol
    var state: State = .empty

    /// The path of a session file of the profile.
    func path(_ role: SessionstoreRole) -> String { joinPath(profile, role.path()) }

    /// Writes the session `bytes` (a mozLz4 file): to the clean file when `final` (at shutdown,
    /// then removing the recovery files when `cleanup`), else to recovery.
    mutating func write(_ bytes: [UInt8], final: Bool, cleanup: Bool) throws(FileSystemError) {
        let backups = joinPath(profile, FirefoxDesktopLayout.backupsDirectory)
        if state == .clean || state == .empty, fileSystem.kind(of: backups) == nil {
            try fileSystem.mkdir(backups, mode: 0o755)
            try syncDirectory(profile)
        }
        if state == .clean, fileSystem.kind(of: path(.clean)) == .file {
            try move(path(.clean), to: path(.cleanBackup))
        }
        if final {
            try writeJSON(path(.clean), bytes, backup: nil)
        } else {
            try writeJSON(path(.recovery), bytes, backup: state == .recovery ? path(.recoveryBackup) : nil)
        }
        if cleanup {
            for role in [SessionstoreRole.recoveryBackup, .recovery] where fileSystem.kind(of: path(role)) != nil {
                try fileSystem.unlink(path(role))
                try syncDirectory(backups)
            }
        }
        state = .recovery
    }

    /// `IOUtils.writeJSON` with a temporary path: the file there moved to `backup` first (when
    /// given and the file exists), the temporary file opened truncating, written and closed, then
    /// renamed over `path`.
    private func writeJSON(_ path: String, _ bytes: [UInt8], backup: String?) throws(FileSystemError) {
        let directory = parentPath(path)
        if let backup, fileSystem.kind(of: path) == .file {
            try move(path, to: backup)
        }
        let temporary = path + ".tmp"
        let handle = try fileSystem.openTruncating(temporary, mode: 0o644)
        var offset = 0
        while offset < bytes.count { offset += try fileSystem.write(handle, bytes[offset...]) }
        if saveProtocol == .durable { try fileSystem.fsync(handle) }
        try fileSystem.close(handle)
        try fileSystem.rename(temporary, to: path)
        try syncDirectory(directory)
    }

    /// `IOUtils.move`: a rename under Firefox's protocol. The durable one never leaves the file
    /// under neither name, even when a power loss tears the rename: it links the file to its new
    /// name (any file there removed first), fsyncs, then unlinks the old name and fsyncs again.
    private func move(_ source: String, to destination: String) throws(FileSystemError) {
        guard saveProtocol == .durable else {
            try fileSystem.rename(source, to: destination)
            return
        }
        if fileSystem.kind(of: destination) != nil {
            try fileSystem.unlink(destination)
            try syncDirectory(parentPath(destination))
        }
        try fileSystem.link(source, to: destination)
        try syncDirectory(parentPath(destination))
        try fileSystem.unlink(source)
        try syncDirectory(parentPath(source))
    }

    /// Fsyncs a directory under the durable protocol; Firefox's own never does.
    private func syncDirectory(_ path: String) throws(FileSystemError) {
        if saveProtocol == .durable { try fileSystem.fsyncDirectory(path) }
    }
}
