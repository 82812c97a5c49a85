import FileSystemKit
import SessionFormats
import SessionModel

/// Runs `ChromeLoadSemantics` on a session directory of a `FileSystem`: reads session_metadata.pb
/// and lists the directory and its tab directories. Reads only; never changes anything.
public struct SessionDirectoryLoader: Sendable {
    /// Where the profile is read from.
    public let fileSystem: any FileSystem
    /// The profile directory.
    public let profile: String

    public init(fileSystem: any FileSystem, profile: String) {
        self.fileSystem = fileSystem
        self.profile = profile
    }

    /// The session directory of a key.
    public func directory(of key: SessionKey) -> String {
        joinPath(profile, ProfileLayout.sessionDirectory(key.id, incognito: key.incognito))
    }

    /// What Chrome would do with the session directory of `key`.
    public func load(_ key: SessionKey) -> ChromeLoadSemantics.Outcome {
        let directory = directory(of: key)
        let listed = (try? fileSystem.entries(of: directory)) ?? []
        let entries = listed.map { entry -> ChromeLoadSemantics.DirectoryEntry in
            let isDirectory = entry.kind == .directory
            return ChromeLoadSemantics.DirectoryEntry(
                name: entry.name, isDirectory: isDirectory,
                children: isDirectory ? ((try? fileSystem.list(joinPath(directory, entry.name))) ?? []) : [])
        }
        let metadataPath = joinPath(directory, ProfileLayout.metadataFile)
        let metadata = fileSystem.kind(of: metadataPath) == .file ? try? fileSystem.read(metadataPath) : nil
        return ChromeLoadSemantics.load(metadata: metadata, entries: entries, id: key.id, incognito: key.incognito)
    }

    /// Reads a tab's data.pb: strictly, else what can be salvaged (with the damage as the problem).
    public func readTabData(_ tab: TabID, of key: SessionKey) throws(FormatError) -> (history: TabHistory, problem: FormatError?) {
        let path = joinPath(directory(of: key), Tab.directoryName(for: tab), ProfileLayout.tabDataFile)
        let bytes: [UInt8]
        do {
            bytes = try fileSystem.read(path)
        } catch {
            throw .unreadable(path: path, reason: error.description)
        }
        do {
            return (try ChromeProtoCodec.decodeTabData(bytes, file: path), nil)
        } catch {
            return (ChromeProtoCodec.salvageTabData(bytes).value, error)
        }
    }
}
