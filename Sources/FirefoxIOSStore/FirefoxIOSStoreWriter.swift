@_spi(CrashTesting) import CrashSimulator
import FileSystemKit
import FirefoxIOS
import SessionFormats
import SessionModel

/// Writes window files into a Firefox for iOS profile directory as Firefox's `DefaultTabDataStore`
/// does, under a `FirefoxIOSSaveProtocol`.
struct FirefoxIOSStoreWriter {
    let fileSystem: any FileSystem
    /// The `profile.profile` directory.
    let profile: String
    let saveProtocol: FirefoxIOSSaveProtocol
    /// Temporary names given so far (each write has its own).
    private var temporaryCount = 0

    init(fileSystem: any FileSystem, profile: String, saveProtocol: FirefoxIOSSaveProtocol) {
        self.fileSystem = fileSystem
        self.profile = profile
        self.saveProtocol = saveProtocol
    }

    /// The paths of the profile's window files.
    var paths: FirefoxIOSStorePaths { FirefoxIOSStorePaths(profile: profile) }

    /// Saves `bytes` as window `id`'s file; a throttled save (`backingUp`), and every save of the
    /// durable protocol, first makes the file there is the window's backup.
    mutating func save(window id: String, bytes: [UInt8], backingUp: Bool) throws(FileSystemError) {
        let main = paths.windowPath(id)
        try makeDirectory(joinPath(profile, FirefoxIOSLayout.windowDataDirectory))
        if backingUp || saveProtocol == .durable, fileSystem.kind(of: main) == .file {
            try makeDirectory(joinPath(profile, FirefoxIOSLayout.backupDirectory))
            let previous = try fileSystem.read(main, limit: Int.max)
            switch saveProtocol {
            case .firefox, .unsynced:
                // DefaultTabFileManager.copyItem: the old backup removed, then FileManager's copy.
                if fileSystem.kind(of: paths.backupPath(id)) != nil { try fileSystem.unlink(paths.backupPath(id)) }
                try writeFile(paths.backupPath(id), previous, syncing: false)
            case .durable:
                try replace(paths.backupPath(id), with: previous)
            }
        }
        try replace(main, with: bytes)
    }

    /// Writes `bytes` under a temporary name in `path`'s directory and renames it over `path`
    /// (`Data.write(.atomic)`, which fsyncs the temporary file when it holds bytes); the durable
    /// protocol fsyncs the directory after too, the unsynced one nothing.
    private mutating func replace(_ path: String, with bytes: [UInt8]) throws(FileSystemError) {
        temporaryCount += 1
        let directory = parentPath(path)
        let temporary = joinPath(directory, ".dat.nosync\(temporaryCount)")
        let durable = saveProtocol == .durable
        try writeFile(temporary, bytes, syncing: durable || (saveProtocol == .firefox && !bytes.isEmpty))
        try fileSystem.rename(temporary, to: path)
        if durable { try fileSystem.fsyncDirectory(directory) }
    }

    /// Creates `path` and writes `bytes` into it, fsyncing it when `syncing`.
    private func writeFile(_ path: String, _ bytes: [UInt8], syncing: Bool) throws(FileSystemError) {
        let handle = try fileSystem.createExclusive(path, mode: 0o644)
        var offset = 0
        while offset < bytes.count { offset += try fileSystem.write(handle, bytes[offset...]) }
        if syncing { try fileSystem.fsync(handle) }
        try fileSystem.close(handle)
    }

    /// Creates a directory of the profile when it is missing (durably under the durable protocol).
    private func makeDirectory(_ path: String) throws(FileSystemError) {
        guard fileSystem.kind(of: path) == nil else { return }
        try fileSystem.mkdir(path, mode: 0o755)
        if saveProtocol == .durable { try fileSystem.fsyncDirectory(parentPath(path)) }
    }
}

/// Where a Firefox for iOS profile keeps a window's file and its backup.
struct FirefoxIOSStorePaths: Sendable {
    /// The `profile.profile` directory.
    let profile: String

    /// The window file of window `id`.
    func windowPath(_ id: String) -> String {
        joinPath(profile, FirefoxIOSLayout.windowDataDirectory, FirefoxIOSLayout.windowFilePrefix + id)
    }

    /// The backup of window `id`'s file.
    func backupPath(_ id: String) -> String {
        joinPath(profile, FirefoxIOSLayout.backupDirectory, FirefoxIOSLayout.windowFilePrefix + id)
    }
}
