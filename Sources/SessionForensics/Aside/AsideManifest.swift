import SessionFormats
import SessionModel
import SessionStore

/// `manifest.json` of a set-aside entry, as `SessionSetAside` writes it: why and when the session
/// was set aside, by which version, from where, and every file's relative path, size and SHA-256.
package struct AsideManifest: Sendable, Equatable {
    package static let fileName = SessionSetAside.manifestFile
    package static let schema = SessionSetAside.manifestSchema

    /// True for `manifest.json` and for the `AtomicWriter` temporary file an interrupted write of it leaves.
    package static func isManifestOrItsTemporary(_ name: String) -> Bool {
        SessionSetAside.isManifestOrItsTemporary(name)
    }

    /// One file of the entry.
    package struct File: Sendable, Equatable {
        var path: String
        var size: Int64
        var sha256: String
    }

    package var session: SessionID
    package var incognito: Bool
    package var reason: String
    package var time: Timestamp
    /// Empty when the manifest does not say (written by crash recovery).
    package var toolVersion: String
    /// Where the session lived, relative to the profile.
    package var originalPath: String
    package var files: [File]

    /// The manifest in `bytes`, or nil when they are not one.
    package static func decode(_ bytes: [UInt8]) -> AsideManifest? {
        guard let document = try? JSONParser.parse(bytes, file: fileName),
            document["schema"] == .string(schema),
            case .string(let session)? = document["session"],
            case .bool(let incognito)? = document["incognito"],
            case .string(let reason)? = document["reason"],
            case .string(let timeText)? = document["time"], let time = Timestamp(iso8601: timeText),
            case .string(let originalPath)? = document["originalPath"],
            case .array(let fileValues)? = document["files"]
        else { return nil }
        var files: [File] = []
        for value in fileValues {
            guard case .string(let path)? = value["path"], case .int(let size)? = value["size"],
                case .string(let sha256)? = value["sha256"]
            else { return nil }
            files.append(File(path: path, size: size, sha256: sha256))
        }
        var toolVersion = ""
        if case .string(let version)? = document["toolVersion"] { toolVersion = version }
        return AsideManifest(
            session: session, incognito: incognito, reason: reason, time: time,
            toolVersion: toolVersion, originalPath: originalPath, files: files)
    }
}
