import Archive
import FileSystemKit
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

/// Sets sessions aside, for crash recovery and for `sessionctl aside push`: the session directory
/// goes to the entry with its `manifest.json`, written atomically, listing the reason, time, tool
/// version, original path and every file's size and SHA-256 (renamed, then the manifest written;
/// or copied with the manifest, then renamed into place: see `Method`). Nothing is lost at any
/// point.
///
/// An interrupted set-aside is finished or undone by `completeInterruptedEntries`: an entry
/// without a manifest and without its live session gets its manifest; one without a manifest
/// beside a live session holding the same bytes is a partial copy (as copies were made before
/// they were put together under a temporary name) and is dropped; a live directory whose every
/// file is in an entry's manifest is what remains of a removal and is removed. A copy cut short
/// under its temporary name is removed by `TemporaryFileSweeper`.
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
        joinPath(ProfileLayout.stateRoot(incognito: incognito), ProfileLayout.backupsDirectory)
    }

    /// The stamp of a time (`20261121T183426.123456Z`, see `AsideStamp`).
    public static func stamp(for time: Timestamp) -> String {
        AsideStamp.format(time) ?? "16010101T000000.000001Z"
    }

    /// How a session directory gets into its entry.
    public enum Method: Sendable {
        /// Renamed (both parents fsynced): atomic when only the process dies, but a power loss can
        /// split an unsynced rename into its steps and leave the directory under neither name.
        case rename
        /// Copied by hard links under a temporary name beside the entry (no data copied, every
        /// directory fsynced), the manifest written into the copy, the copy renamed into place
        /// (its parent fsynced), then the live directory removed: nothing is lost even when power
        /// is, at the price of a moment where the session is both live and set aside, and an
        /// interrupted copy is only a temporary directory. What the store's recovery uses.
        case linkCopy
        /// Copied as `linkCopy` copies, the live directory left in place: a record of a session
        /// as it was before Chrome's loading rules shorten it.
        case copy
    }

    /// Sets a live session directory aside and writes its manifest; returns the entry.
    ///
    /// - Parameters:
    ///   - directory: the session's directory relative to the profile; by default its
    ///     `SessionStorage/<id>` (a legacy `Sessions/<id>` is set aside the same way).
    ///   - toolVersion: the version recorded in the manifest, when known.
    ///   - originalPath: where the session lived, for the manifest, when `directory` is not that
    ///     place (a migration moves the whole old tree out of the way before setting its sessions aside).
    ///
    /// Directories created under `Backups/` get the session directory's permissions, never wider
    /// ones, and the manifest is readable by its owner only. The stamp is unique across both
    /// sides, so that an entry name `<id>@<stamp>` names one entry.
    public func push(
        _ key: SessionKey, reason: String, time: Timestamp, directory: String? = nil,
        toolVersion: String? = nil, method: Method = .rename, originalPath: String? = nil
    ) throws(FileSystemError) -> SetAsideEntry {
        let current = directory ?? ProfileLayout.sessionDirectory(key.id, incognito: key.incognito)
        let original = originalPath ?? current
        let source = joinPath(profile, current)
        let mode = (writer.fileSystem.permissions(of: source) ?? 0o700) & 0o777
        let parent = joinPath(SessionSetAside.backupsDirectory(incognito: key.incognito), key.id)
        var stampTime = time
        var stamp = SessionSetAside.stamp(for: stampTime)
        while [false, true].contains(where: { side in
            writer.fileSystem.kind(of: joinPath(profile, SessionSetAside.backupsDirectory(incognito: side), key.id, stamp)) != nil
        }) {
            stampTime = Timestamp(microseconds: stampTime.microseconds + 1)
            stamp = SessionSetAside.stamp(for: stampTime)
        }
        let relative = joinPath(parent, stamp)
        try writer.makeDirectories(joinPath(profile, parent), mode: mode)
        switch method {
        case .rename:
            try writer.move(source, to: joinPath(profile, relative))
            try writeManifest(key: key, entry: relative, reason: reason, time: stampTime, originalPath: original, toolVersion: toolVersion)
        case .linkCopy, .copy:
            // Put together under a temporary name, manifest included, and renamed into place
            // whole: an interrupted copy is a temporary directory, which the sweep removes.
            let staged = joinPath(parent, AtomicWriter.temporaryPrefix + stamp)
            let stagedPath = joinPath(profile, staged)
            if writer.fileSystem.kind(of: stagedPath) != nil { try writer.removeTree(stagedPath, syncEachDirectory: false) }
            let linked = try writer.linkTree(source, to: stagedPath, mode: mode)
            try writeManifest(
                key: key, entry: staged, reason: reason, time: stampTime, originalPath: original, toolVersion: toolVersion,
                files: linked)
            try writer.move(stagedPath, to: joinPath(profile, relative))
            if method == .linkCopy { try removeLive(source) }
        }
        return SetAsideEntry(key: key, path: relative, stamp: stamp, reason: reason)
    }

    /// Whether an entry of `key` (with a manifest) already holds a session_metadata.pb with these
    /// bytes: a session kept as it was need not be kept twice.
    public func hasEntry(of key: SessionKey, holdingMetadata metadata: [UInt8]) -> Bool {
        let parent = joinPath(profile, SessionSetAside.backupsDirectory(incognito: key.incognito), key.id)
        guard writer.fileSystem.kind(of: parent) == .directory, let stamps = try? writer.fileSystem.list(parent) else { return false }
        let size = Int64(metadata.count)
        let sha = SHA256.hex(SHA256.hash(metadata))
        for stamp in stamps {
            let manifestPath = joinPath(parent, stamp, SessionSetAside.manifestFile)
            guard writer.fileSystem.kind(of: manifestPath) == .file,
                let parsed = try? JSONParser.parse(writer.fileSystem.read(manifestPath), file: manifestPath),
                case .array(let files)? = parsed["files"]
            else { continue }
            for file in files {
                if case .string(ProfileLayout.metadataFile)? = file["path"], case .int(size)? = file["size"],
                    case .string(sha)? = file["sha256"]
                {
                    return true
                }
            }
        }
        return false
    }

    /// Removes a live session directory that is safe in an entry: renamed out of the live place in
    /// one step to a temporary name (the parent fsynced), so that no crash leaves a partly removed
    /// directory there for a reader to take for the session, then removed. What a crash leaves
    /// under the temporary name is removed by the next `TemporaryFileSweeper`.
    private func removeLive(_ directory: String) throws(FileSystemError) {
        try writer.removeTreeAtOnce(directory)
    }

    /// Finishes or undoes interrupted set-asides (of both sides); returns what it did, one line each.
    /// A partial copy or a remainder is removed without an fsync of each of its directories: a
    /// crash midway leaves one this finds again and removes on the next launch.
    public func completeInterruptedEntries() throws(FileSystemError) -> [String] {
        var done: [String] = []
        for incognito in [false, true] {
            let backups = SessionSetAside.backupsDirectory(incognito: incognito)
            guard writer.fileSystem.kind(of: joinPath(profile, backups)) == .directory else { continue }
            for id in try writer.fileSystem.list(joinPath(profile, backups)) {
                guard writer.fileSystem.kind(of: joinPath(profile, backups, id)) == .directory else { continue }
                for stamp in try writer.fileSystem.list(joinPath(profile, backups, id)) {
                    let entry = joinPath(backups, id, stamp)
                    guard let time = AsideStamp.parse(stamp), writer.fileSystem.kind(of: joinPath(profile, entry)) == .directory else {
                        continue
                    }
                    let legacy = writer.fileSystem.kind(of: joinPath(profile, entry, ProfileLayout.legacySessionFile)) == .file
                    let original = joinPath(
                        ProfileLayout.stateRoot(incognito: incognito),
                        legacy ? ProfileLayout.legacyDirectory : ProfileLayout.optimizedDirectory, id)
                    let live = joinPath(profile, original)
                    let manifestPath = joinPath(profile, entry, SessionSetAside.manifestFile)
                    guard writer.fileSystem.kind(of: manifestPath) == .file else {
                        if writer.fileSystem.kind(of: live) == .directory, try isCopy(joinPath(profile, entry), of: live) {
                            try writer.removeTree(joinPath(profile, entry), syncEachDirectory: false)
                            done.append("\(entry) (a partial copy, dropped: the live session is whole)")
                        } else {
                            try writeManifest(
                                key: SessionKey(id: id, incognito: incognito), entry: entry,
                                reason: "set aside by recovery (manifest completed on a later launch)", time: time,
                                originalPath: original, toolVersion: nil)
                            done.append(entry)
                        }
                        continue
                    }
                    if writer.fileSystem.kind(of: live) == .directory, try isRemainder(live, of: manifestPath) {
                        try writer.removeTree(live, syncEachDirectory: false)
                        done.append("\(original) (what remained after \(entry) was set aside, removed)")
                    }
                }
            }
        }
        return done
    }

    /// Whether every file under `entry` has the same bytes as the file at the same path under `live`.
    private func isCopy(_ entry: String, of live: String) throws(FileSystemError) -> Bool {
        for path in try listFiles(entry, relative: "") {
            let original = joinPath(live, path)
            guard writer.fileSystem.kind(of: original) == .file,
                try writer.fileSystem.read(original) == writer.fileSystem.read(joinPath(entry, path))
            else { return false }
        }
        return true
    }

    /// Whether every file under the live directory `live` is in the manifest with the same size and
    /// SHA-256 (it is then what a set-aside was removing).
    private func isRemainder(_ live: String, of manifestPath: String) throws(FileSystemError) -> Bool {
        // `removeLive` renames the whole directory away before removing anything, so a directory
        // at the live place that still has a list file is a live session, even when its bytes
        // equal an entry's (set aside, then written again the same, as a migration there and
        // back does).
        for list in [ProfileLayout.metadataFile, ProfileLayout.legacySessionFile]
        where writer.fileSystem.kind(of: joinPath(live, list)) != nil {
            return false
        }
        guard let parsed = try? JSONParser.parse(writer.fileSystem.read(manifestPath), file: manifestPath),
            case .array(let files)? = parsed["files"]
        else { return false }
        var listed: [String: (size: Int64, sha: String)] = [:]
        for file in files {
            guard case .string(let path)? = file["path"], case .int(let size)? = file["size"], case .string(let sha)? = file["sha256"]
            else { return false }
            listed[path] = (size, sha)
        }
        let digester = FileDigester(writer.fileSystem)
        for path in try listFiles(live, relative: "") {
            guard let expected = listed[path] else { return false }
            let found = try digester.digest(of: joinPath(live, path))
            guard found.size == expected.size, found.sha256 == expected.sha else { return false }
        }
        return true
    }

    /// Writes an entry's manifest, listing `files` (the entry's files, relative to it, as
    /// `listFiles` finds them; listed again when not given).
    func writeManifest(
        key: SessionKey, entry: String, reason: String, time: Timestamp, originalPath: String,
        toolVersion: String?, files known: [String]? = nil
    ) throws(FileSystemError) {
        let root = joinPath(profile, entry)
        var files: [JSONValue] = []
        let paths: [String]
        if let known { paths = known } else { paths = try listFiles(root, relative: "") }
        let digester = FileDigester(writer.fileSystem)
        for path in paths where path != SessionSetAside.manifestFile {
            let digest = try digester.digest(of: joinPath(root, path))
            files.append(.object([("path", .string(path)), ("size", .int(digest.size)), ("sha256", .string(digest.sha256))]))
        }
        var members: [(String, JSONValue)] = [
            ("schema", .string(SessionSetAside.manifestSchema)),
            ("session", .string(key.id)),
            ("incognito", .bool(key.incognito)),
            ("origin", .string("sessionctl")),
            ("reason", .string(reason)),
            ("time", .string(time.iso8601))
        ]
        if let toolVersion { members.append(("toolVersion", .string(toolVersion))) }
        members += [("originalPath", .string(originalPath)), ("files", .array(files))]
        // Written while a launch or a command runs: on this thread alone.
        var bytes = JSONValue.object(members).serializedBytes(pretty: true, concurrently: false)
        bytes.append(UInt8(ascii: "\n"))
        try writer.write(bytes, to: joinPath(root, SessionSetAside.manifestFile), mode: 0o600)
    }

    /// Every regular file under `directory`, as sorted relative paths (temp files left out).
    private func listFiles(_ directory: String, relative: String) throws(FileSystemError) -> [String] {
        var result: [String] = []
        for entry in try writer.fileSystem.entries(of: joinPath(directory, relative)) where !AtomicWriter.isTemporaryName(entry.name) {
            let path = joinPath(relative, entry.name)
            switch entry.kind {
            case .file: result.append(path)
            case .directory: result += try listFiles(directory, relative: path)
            default: break
            }
        }
        return result
    }
}
