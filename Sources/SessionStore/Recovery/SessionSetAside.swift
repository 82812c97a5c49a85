import SessionFormats
import SessionModel

/// A session moved out of the live tree, to `<profile>/Backups/<SessionID>/<UTC stamp>/`
/// (incognito: `<profile>/OTR/Backups/...`).
public struct SetAsideEntry: Sendable, Hashable {
    /// The session that was set aside.
    public var key: SessionKey
    /// The entry's directory, relative to the profile.
    public var path: String
    /// The UTC stamp naming the entry (`20261121T183426.123456Z`).
    public var stamp: String
    /// Why it was set aside (also in its manifest).
    public var reason: String
}

/// Sets sessions aside, for crash recovery and for `sessionctl aside push`: the session directory is
/// moved by rename (both parents fsynced), then `manifest.json` is written into it atomically,
/// listing the reason, time, tool version, original path and every file's size and SHA-256.
/// Nothing is copied or deleted.
///
/// An entry whose manifest is missing (the move happened, then the process died) is completed by
/// `completeInterruptedEntries`, so setting aside survives interruption.
public struct SessionSetAside: Sendable {
    /// Writes the manifest and makes every move durable.
    public let writer: AtomicWriter
    /// The profile directory.
    public let profile: String
    /// Name of the manifest inside an entry.
    public static let manifestFile = "manifest.json"
    /// The `schema` of a manifest.
    public static let manifestSchema = "sessionctl.aside-manifest/1"

    public init(writer: AtomicWriter, profile: String) {
        self.writer = writer
        self.profile = profile
    }

    /// `Backups` or `OTR/Backups`, relative to the profile.
    public static func backupsDirectory(incognito: Bool) -> String {
        treePath(ProfileLayout.stateRoot(incognito: incognito), ProfileLayout.backupsDirectory)
    }

    /// The stamp of a time (`20261121T183426.123456Z`, see `AsideStamp`).
    public static func stamp(for time: Timestamp) -> String {
        AsideStamp.format(time) ?? "16010101T000000.000001Z"
    }

    /// Moves a live session directory aside and writes its manifest; returns the entry.
    ///
    /// - Parameters:
    ///   - directory: the session's directory relative to the profile; by default its
    ///     `SessionStorage/<id>` (a legacy `Sessions/<id>` is set aside the same way).
    ///   - toolVersion: the version recorded in the manifest, when known.
    ///
    /// Directories created under `Backups/` get the session directory's permissions, never wider
    /// ones, and the manifest is readable by its owner only. The stamp is unique across both
    /// sides, so that an entry name `<id>@<stamp>` names one entry.
    public func push(_ key: SessionKey, reason: String, time: Timestamp, directory: String? = nil,
                     toolVersion: String? = nil) throws(StoreError) -> SetAsideEntry {
        let original = directory ?? ProfileLayout.sessionDirectory(key.id, incognito: key.incognito)
        let source = joinPath(profile, original)
        let mode = (writer.fileSystem.permissions(of: source) ?? 0o700) & 0o777
        let parent = treePath(SessionSetAside.backupsDirectory(incognito: key.incognito), key.id)
        var stampTime = time
        var stamp = SessionSetAside.stamp(for: stampTime)
        while [false, true].contains(where: { side in
            writer.fileSystem.kind(of: joinPath(profile, SessionSetAside.backupsDirectory(incognito: side), key.id, stamp)) != nil
        }) {
            stampTime = Timestamp(microseconds: stampTime.microseconds + 1)
            stamp = SessionSetAside.stamp(for: stampTime)
        }
        let relative = treePath(parent, stamp)
        try writer.makeDirectories(joinPath(profile, parent), mode: mode)
        try writer.move(source, to: joinPath(profile, relative))
        try writeManifest(key: key, entry: relative, reason: reason, time: stampTime, originalPath: original, toolVersion: toolVersion)
        return SetAsideEntry(key: key, path: relative, stamp: stamp, reason: reason)
    }

    /// Writes the manifest of every entry (of both sides) that lacks one; returns their paths.
    public func completeInterruptedEntries() throws(StoreError) -> [String] {
        var completed: [String] = []
        for incognito in [false, true] {
            let backups = SessionSetAside.backupsDirectory(incognito: incognito)
            guard writer.fileSystem.kind(of: joinPath(profile, backups)) == .directory else { continue }
            for id in try writer.fileSystem.list(joinPath(profile, backups)) {
                guard writer.fileSystem.kind(of: joinPath(profile, backups, id)) == .directory else { continue }
                for stamp in try writer.fileSystem.list(joinPath(profile, backups, id)) {
                    let entry = treePath(backups, id, stamp)
                    guard let time = AsideStamp.parse(stamp),
                          writer.fileSystem.kind(of: joinPath(profile, entry)) == .directory,
                          writer.fileSystem.kind(of: joinPath(profile, entry, SessionSetAside.manifestFile)) == nil
                    else { continue }
                    let legacy = writer.fileSystem.kind(of: joinPath(profile, entry, ProfileLayout.legacySessionFile)) == .file
                    let original = treePath(ProfileLayout.stateRoot(incognito: incognito),
                                            legacy ? ProfileLayout.legacyDirectory : ProfileLayout.optimizedDirectory, id)
                    try writeManifest(key: SessionKey(id: id, incognito: incognito), entry: entry,
                                      reason: "set aside by recovery (manifest completed on a later launch)", time: time,
                                      originalPath: original, toolVersion: nil)
                    completed.append(entry)
                }
            }
        }
        return completed
    }

    private func writeManifest(key: SessionKey, entry: String, reason: String, time: Timestamp, originalPath: String,
                               toolVersion: String?) throws(StoreError) {
        let root = joinPath(profile, entry)
        var files: [JSONValue] = []
        for path in try listFiles(root, relative: "") where path != SessionSetAside.manifestFile {
            let bytes = try writer.fileSystem.read(joinPath(root, path))
            files.append(.object([("path", .string(path)), ("size", .int(Int64(bytes.count))), ("sha256", .string(SHA256.hex(bytes)))]))
        }
        var members: [(String, JSONValue)] = [
            ("schema", .string(SessionSetAside.manifestSchema)),
            ("session", .string(key.id)),
            ("incognito", .bool(key.incognito)),
            ("origin", .string("sessionctl")),
            ("reason", .string(reason)),
            ("time", .string(time.iso8601)),
        ]
        if let toolVersion { members.append(("toolVersion", .string(toolVersion))) }
        members += [("originalPath", .string(originalPath)), ("files", .array(files))]
        try writer.write(Array((JSONValue.object(members).serialized() + "\n").utf8),
                         to: joinPath(root, SessionSetAside.manifestFile), mode: 0o600)
    }

    /// Every regular file under `directory`, as sorted relative paths (temp files left out).
    private func listFiles(_ directory: String, relative: String) throws(StoreError) -> [String] {
        var result: [String] = []
        for name in try writer.fileSystem.list(joinPath(directory, relative)) where !AtomicWriter.isTemporaryName(name) {
            let path = treePath(relative, name)
            switch writer.fileSystem.kind(of: joinPath(directory, path)) {
            case .file: result.append(path)
            case .directory: result += try listFiles(directory, relative: path)
            default: break
            }
        }
        return result
    }
}
